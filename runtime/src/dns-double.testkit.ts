/**
 * A DNS server double for tests: real DNS over UDP on loopback, answering A and AAAA queries from
 * a table. A name can answer differently on each query (the first answer, then the next…), which
 * is how a DNS-rebinding attack looks to a server that resolves a name twice. Point the code under
 * test at it with `EGRESS_DNS_SERVERS=127.0.0.1:<port>`.
 */
import { createSocket, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import * as dnsPacket from 'dns-packet';

export interface DnsDouble {
  /** `127.0.0.1:<port>`, as EGRESS_DNS_SERVERS takes it. */
  server: string;
  /** How often each name was asked for (A and AAAA both count). */
  queries: Map<string, number>;
  /** Sets what a name answers: one list of addresses per query in turn, the last one repeated. */
  set(name: string, ...answers: string[][]): void;
  close(): Promise<void>;
}

export async function startDnsDouble(): Promise<DnsDouble> {
  const table = new Map<string, string[][]>();
  const asked = new Map<string, number>();
  const answered = new Map<string, number>();
  const socket: Socket = createSocket('udp4');
  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const turns = table.get(name);
    let addresses: string[] = [];
    if (turns && turns.length > 0) {
      // A and AAAA of one lookup arrive together: a turn is used up by the A query.
      const turn = answered.get(name) ?? 0;
      addresses = turns[Math.min(turn, turns.length - 1)] ?? [];
      if (question.type === 'A') answered.set(name, turn + 1);
    }
    const matching = addresses.filter((a) => (question.type === 'A' ? isIPv4(a) : question.type === 'AAAA' ? isIPv6(a) : false));
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (turns ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: matching.map((data) => ({ type: question.type as 'A', name: question.name, ttl: 0, class: 'IN' as const, data })),
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    server: `127.0.0.1:${port}`,
    queries: asked,
    set(name, ...answers) {
      table.set(name.toLowerCase(), answers);
      answered.delete(name.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
