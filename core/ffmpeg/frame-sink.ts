import { stat } from 'node:fs/promises'
import { RenderError } from '../errors.js'
import type { FrameSink, OutputSpec } from '../plugin.js'
import { ffmpegArgs } from './args.js'
import { encoderProcessEnv } from './malloc-env.js'
import { ffmpegReason, lastLines, removePartial, spawnFfmpeg } from './run.js'

/**
 * A FrameSink that pipes raw frames (RGBA, or I420 from the GPU: `spec.pixelFormat`) into a native ffmpeg child. `outputArgs` are the encoder
 * arguments after the inputs (codec, filters, the output path last). Backpressure: each `write` resolves
 * when ffmpeg has taken that buffer, so the caller may reuse it; memory stays bounded by the caller's pool.
 */
export async function createFfmpegSink(spec: OutputSpec, outputArgs: string[], opts: { videoInput?: boolean } = {}): Promise<FrameSink> {
  const video = opts.videoInput ?? true
  // A short input queue: frames already wait in our own bounded pool, and ffmpeg's default (8 raw frames,
  // 66 MB at 1080p) only adds memory once audio inputs make its demuxing threaded.
  const input = video
    ? ffmpegArgs`-f rawvideo -pix_fmt ${spec.pixelFormat ?? 'rgba'} -s ${spec.width}x${spec.height} -framerate ${spec.fpsRational} -thread_queue_size 2 -i pipe:0`
    : []
  const audio = spec.audio ? [...spec.audio.inputs.flat(), '-filter_complex', spec.audio.filter] : []
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...input, ...audio, ...outputArgs]
  // The encoder keeps each frame's packet in its heap rather than mapping it afresh (malloc-env.ts): at 1080p 41
  // CPU-s an output minute of page faults.
  const frameBytes = spec.width * spec.height * (spec.pixelFormat === 'yuv420p' ? 1.5 : 4)
  const ff = spawnFfmpeg(args, { stdin: video, signal: spec.signal, env: encoderProcessEnv(frameBytes) })
  let failure: Error | undefined
  const failed = (why: string) => (failure ??= new RenderError('E_OUTPUT_FAILED', describe(why)))
  // The two faults people meet: a full disk, and the encoder killed from outside (OOM killer, an operator).
  const describe = (why: string) => {
    const log = lastLines(ff.stderr())
    if (/No space left on device/i.test(log)) return `the disk is full: cannot write ${spec.path} (No space left on device)`
    if (ff.child.signalCode) return `the ffmpeg encoder was killed (${ff.child.signalCode}) while writing ${spec.path}${log ? `: ${log}` : ''}`
    return `the ffmpeg encoder stopped (${why}) while writing ${spec.path}: ${ffmpegReason(ff.stderr())}`
  }
  ff.exited.then(
    (code) => code !== 0 && failed(`exit ${code}`),
    (e: Error) => (failure ??= e),
  )
  // A broken pipe arrives before ffmpeg's exit status: wait (briefly) for the status so the error says why.
  const settle = async (why: string) => {
    await Promise.race([ff.exited.catch(() => undefined), new Promise((r) => setTimeout(r, 2000))])
    return failed(why)
  }
  const stdin = ff.child.stdin
  stdin?.on('error', () => void settle('its input pipe closed'))

  let aborted = false
  return {
    write(rgba) {
      if (failure) return Promise.reject(failure)
      if (!stdin) return Promise.reject(new RenderError('E_OUTPUT_FAILED', 'this output takes no frames'))
      return new Promise<void>((resolve, reject) => {
        stdin.write(rgba, (err) => (err ? void settle(err.message).then(reject) : resolve()))
      })
    },
    async close() {
      stdin?.end()
      const code = await ff.exited
      if (spec.signal.aborted) throw new RenderError('E_CANCELLED', 'render cancelled')
      if (code !== 0 || failure) throw failure ?? failed(`exit ${code}`)
      const { size } = await stat(spec.path)
      return { path: spec.path, bytes: size }
    },
    abort() {
      if (aborted) return
      aborted = true
      ff.child.kill('SIGKILL')
      void ff.exited.finally(() => removePartial(spec.path))
    },
  }
}
