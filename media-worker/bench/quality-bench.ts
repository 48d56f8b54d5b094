/**
 * Picture quality of the program: `npx tsx bench/quality-bench.ts` from media-worker/. A 720p30
 * session shows a still SMPTE picture over the whole frame (still, so every output frame can be
 * compared with one reference; its noise corner is left out) and streams it to a private
 * nginx-rtmp. 90 frames of the RTMP output are decoded and compared, with ffmpeg's PSNR and SSIM,
 * with the picture itself made losslessly by videotestsrc (two ways, see below). Run it on two
 * versions of the pipeline (check out the older one beside this one and copy this file there) to
 * show that a change kept the picture: the figures are printed per plane and over all frames.
 *
 * Quality is measured at the encoder's step 0 (the step-down ladder lowers it on purpose).
 * QUALITY_KEEP=<folder> copies the output and the references there, to look at them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '@onair/embedded';
import { outputProfiles, renderPlanSchema } from '@onair/protocol';
import { startBenchHost } from './bench-host.ts';

const execFileAsync = promisify(execFile);
const FRAMES = 90;

async function main(): Promise<void> {
  const { host, server, dir, stop } = await startBenchHost('quality-bench');
  try {
    const p = outputProfiles['720p30'];
    const plan = renderPlanSchema.parse({
      profile: p,
      inputs: [{ id: 'picture', kind: 'test-pattern', pattern: 'smpte', width: p.width, height: p.height }],
      scenes: [{ id: 'main', placements: [{ inputId: 'picture', x: 0, y: 0, width: p.width, height: p.height, zorder: 0 }] }],
      activeSceneId: 'main',
      outputs: [{ id: 'out', url: `rtmp://127.0.0.1:${server.port}/live`, key: 'quality', allowPrivate: true }],
    });
    const session = host.startSession({ sessionId: 'quality', planVersion: 1, plan });
    await waitFor('quality live', async () => (session.stats?.outputs[0]?.state === 'live' ? true : undefined), 30_000);
    // Past the first GOP: rate control has settled.
    await new Promise((r) => setTimeout(r, 3000));
    const output = join(dir, 'output.y4m');
    await execFileAsync('ffmpeg', ['-v', 'error', '-i', server.url('quality'), '-frames:v', String(FRAMES), '-pix_fmt', 'yuv420p', '-y', output], {
      timeout: 60_000,
    });
    // Two references, since how the picture is drawn decides its exact YUV values: videotestsrc
    // drawing it in I420 (as the pipeline's test input does now), and drawing it in 16-bit RGBA
    // converted to I420 by videoconvert (as it did before). A fair comparison of two versions of
    // the pipeline looks at both.
    const references = [
      { name: 'drawn in I420', caps: [`video/x-raw,format=I420,width=${p.width},height=${p.height},framerate=30/1`] },
      {
        name: 'drawn in 16-bit RGBA, converted',
        caps: [`video/x-raw,format=ARGB64,width=${p.width},height=${p.height},framerate=30/1`, '!', 'videoconvert', '!', 'video/x-raw,format=I420'],
      },
    ];
    process.stdout.write(
      `720p30 still SMPTE picture, ${FRAMES} output frames (encoder ${session.stats?.encoder?.preset ?? 'veryfast'} at ${p.videoBitrateKbps} kbit/s) against the picture\n`,
    );
    for (const [i, ref] of references.entries()) {
      const reference = join(dir, `reference-${i}.y4m`);
      await execFileAsync('gst-launch-1.0', [
        '-q',
        'videotestsrc',
        'pattern=smpte',
        'num-buffers=1',
        '!',
        ...ref.caps,
        '!',
        'y4menc',
        '!',
        'filesink',
        `location=${reference}`,
      ]);
      if (process.env.QUALITY_KEEP) await execFileAsync('cp', [output, reference, process.env.QUALITY_KEEP]);
      // The reference is one frame, looped against every output frame.
      const compare = async (filter: string) =>
        (
          await execFileAsync(
            'ffmpeg',
            ['-hide_banner', '-i', output, '-stream_loop', '-1', '-i', reference, '-lavfi', filter, '-frames:v', String(FRAMES), '-f', 'null', '-'],
            { timeout: 60_000 },
          )
        ).stderr;
      // SMPTE's bottom right is noise, new in every frame: the top three quarters (bars and strip) are compared.
      const still = `crop=${p.width}:${(p.height * 3) / 4}:0:0`;
      const psnr = /PSNR y:([\d.inf]+) u:([\d.inf]+) v:([\d.inf]+) average:([\d.inf]+) min:([\d.inf]+)/.exec(
        await compare(`[0:v]${still}[a];[1:v]${still}[b];[a][b]psnr`),
      );
      const ssim = /SSIM Y:([\d.]+).*All:([\d.]+)/.exec(await compare(`[0:v]${still}[a];[1:v]${still}[b];[a][b]ssim`));
      if (!psnr || !ssim) throw new Error('ffmpeg printed no PSNR/SSIM');
      process.stdout.write(
        `  ${ref.name}: PSNR y ${psnr[1]} u ${psnr[2]} v ${psnr[3]} average ${psnr[4]} dB (lowest frame ${psnr[5]}); SSIM Y ${ssim[1]} all ${ssim[2]}\n`,
      );
    }
    await host.stopSession('quality');
  } finally {
    await stop();
  }
}

await main();
