/** Marks a threshold this module set, not the operator, so a render process can keep it from its decoders. */
const OURS = 'REELFORGE_MMAP_THRESHOLD_SET'

/**
 * An environment for a process that holds frames and photos for a long time (a render process, the encoder):
 * glibc's mmap threshold fixed at 1 MB, unless the operator's environment sets one. By default glibc raises the
 * threshold to the size of each large block freed (up to 32 MB), after which frames, canvases and decoded photos
 * come from the heap and stay resident when freed. Measured on issue 35's footage minute: the render process held
 * ~100 MB more after its photos had gone (tree peak PSS 741 MB against 680 with it fixed), the encoder ~35 MB more.
 */
export function frameProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return env.MALLOC_MMAP_THRESHOLD_ === undefined ? { ...env, MALLOC_MMAP_THRESHOLD_: String(1 << 20), [OURS]: '1' } : env
}

/**
 * Takes a threshold `frameProcessEnv` set (glibc read it when this process started) out of this process's
 * environment, so the processes it starts get glibc's default: a decoder with it maps and unmaps every frame it
 * writes out (measured: +31 % CPU, 1.3 CPU-s a 15 s 1080p clip). An operator's own value stays.
 */
export function keepMallocSettingToSelf(): void {
  if (process.env[OURS] !== '1') return
  delete process.env.MALLOC_MMAP_THRESHOLD_
  delete process.env[OURS]
}

/** glibc's largest mmap threshold on 64-bit (a larger value is ignored). */
const MOST = 32 << 20

/**
 * An encoder's environment, for raw frames of `frameBytes` on its input: glibc's mmap threshold above two frames
 * (4 MB at least, 32 MB at most), the heap's top trimmed only past twice that and one arena, unless the operator's
 * environment sets any of them. ffmpeg reads each frame into a packet of its own and frees it once encoded; under a
 * lower threshold (glibc's default before its first free, or `frameProcessEnv`'s 1 MB) every packet is mapped,
 * each of its pages faulted in and zeroed as the frame is copied in, and unmapped: 1.38 million faults over a
 * 1080p minute, which this machine's virtualised kernel makes dear. Measured on issue 35's footage minute: the
 * encoder 95 → 54 CPU-s, the render 0.86× → 1.35× realtime, x264 alone on the same frames 45 → 29 s; the
 * encoder's peak RSS ~35 MB higher (its packets stay in its heap).
 */
export function encoderProcessEnv(frameBytes: number, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const operators =
    env[OURS] !== '1' && (env.MALLOC_MMAP_THRESHOLD_ !== undefined || env.MALLOC_TRIM_THRESHOLD_ !== undefined || env.MALLOC_ARENA_MAX !== undefined)
  if (operators) return env
  const threshold = Math.min(MOST, Math.max(4 << 20, Math.ceil(2 * frameBytes)))
  const { [OURS]: _, ...rest } = env
  // One arena: the packets, allocated by ffmpeg's input thread and freed by its main thread, are held once (12 MB less).
  return { ...rest, MALLOC_MMAP_THRESHOLD_: String(threshold), MALLOC_TRIM_THRESHOLD_: String(2 * threshold), MALLOC_ARENA_MAX: '1' }
}
