/**
 * The part of AMF0 (Adobe's Action Message Format, version 0) that an RTMP publisher exchanges:
 * command names, transaction ids, the connect object, stream ids and onStatus info objects.
 */
export type Amf0Value = number | boolean | string | null | undefined | Date | Amf0Value[] | { [key: string]: Amf0Value };

const NUMBER = 0x00;
const BOOLEAN = 0x01;
const STRING = 0x02;
const OBJECT = 0x03;
const NULL = 0x05;
const UNDEFINED = 0x06;
const ECMA_ARRAY = 0x08;
const OBJECT_END = 0x09;
const STRICT_ARRAY = 0x0a;
const DATE = 0x0b;
const LONG_STRING = 0x0c;

/** UTF-8 text after its 16-bit length: an object key, or a string value after its marker. */
function shortText(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function encodeOne(value: Amf0Value): Buffer {
  if (value === null) return Buffer.from([NULL]);
  if (value === undefined) return Buffer.from([UNDEFINED]);
  if (typeof value === 'number') {
    const out = Buffer.alloc(9);
    out[0] = NUMBER;
    out.writeDoubleBE(value, 1);
    return out;
  }
  if (typeof value === 'boolean') return Buffer.from([BOOLEAN, value ? 1 : 0]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length > 0xffff) {
      const head = Buffer.alloc(5);
      head[0] = LONG_STRING;
      head.writeUInt32BE(bytes.length, 1);
      return Buffer.concat([head, bytes]);
    }
    return Buffer.concat([Buffer.from([STRING]), shortText(value)]);
  }
  if (value instanceof Date) {
    const out = Buffer.alloc(11);
    out[0] = DATE;
    out.writeDoubleBE(value.getTime(), 1);
    return out;
  }
  if (Array.isArray(value)) {
    const head = Buffer.alloc(5);
    head[0] = STRICT_ARRAY;
    head.writeUInt32BE(value.length, 1);
    return Buffer.concat([head, ...value.map(encodeOne)]);
  }
  const parts: Buffer[] = [Buffer.from([OBJECT])];
  for (const [key, member] of Object.entries(value)) parts.push(shortText(key), encodeOne(member));
  parts.push(Buffer.from([0, 0, OBJECT_END]));
  return Buffer.concat(parts);
}

/** The values one after the other, as a command or data message carries them. */
export function encodeAmf0(...values: Amf0Value[]): Buffer {
  return Buffer.concat(values.map(encodeOne));
}

class Reader {
  offset = 0;
  constructor(private readonly buf: Buffer) {}

  get done(): boolean {
    return this.offset >= this.buf.length;
  }

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new Error('AMF0 value cut short');
  }

  /** UTF-8 text after its length in `lengthBytes` bytes: an object key or string (2), a long string (4). */
  private text(lengthBytes: 2 | 4): string {
    this.need(lengthBytes);
    const length = this.buf.readUIntBE(this.offset, lengthBytes);
    this.need(lengthBytes + length);
    const text = this.buf.toString('utf8', this.offset + lengthBytes, this.offset + lengthBytes + length);
    this.offset += lengthBytes + length;
    return text;
  }

  private members(): { [key: string]: Amf0Value } {
    const out: { [key: string]: Amf0Value } = {};
    for (;;) {
      const key = this.text(2);
      this.need(1);
      if (key === '' && this.buf[this.offset] === OBJECT_END) {
        this.offset += 1;
        return out;
      }
      out[key] = this.value();
    }
  }

  value(): Amf0Value {
    this.need(1);
    const marker = this.buf[this.offset++]!;
    switch (marker) {
      case NUMBER: {
        this.need(8);
        const n = this.buf.readDoubleBE(this.offset);
        this.offset += 8;
        return n;
      }
      case BOOLEAN:
        this.need(1);
        return this.buf[this.offset++] !== 0;
      case STRING:
        return this.text(2);
      case LONG_STRING:
        return this.text(4);
      case OBJECT:
        return this.members();
      case ECMA_ARRAY:
        this.need(4);
        this.offset += 4;
        return this.members();
      case STRICT_ARRAY: {
        this.need(4);
        const count = this.buf.readUInt32BE(this.offset);
        this.offset += 4;
        return Array.from({ length: count }, () => this.value());
      }
      case DATE: {
        this.need(10);
        const ms = this.buf.readDoubleBE(this.offset);
        this.offset += 10;
        return new Date(ms);
      }
      case NULL:
        return null;
      case UNDEFINED:
        return undefined;
      default:
        throw new Error(`AMF0 type 0x${marker.toString(16)} is not read here`);
    }
  }
}

/** Every value of a command or data message body. */
export function decodeAmf0(body: Buffer): Amf0Value[] {
  const reader = new Reader(body);
  const values: Amf0Value[] = [];
  while (!reader.done) values.push(reader.value());
  return values;
}
