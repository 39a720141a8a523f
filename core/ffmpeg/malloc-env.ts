/**
 * An environment for a process that handles frames (a render process, the ffmpegs a render starts): glibc's mmap
 * threshold fixed at 1 MB, unless the operator's environment sets one. By default glibc raises the threshold to the
 * size of each large block freed (up to 32 MB), after which frames, canvases and decoded photos come from the heap
 * and stay resident when freed. Measured on issue 35's footage minute: the render process held ~100 MB more after
 * its photos had gone (tree peak PSS 741 MB against 680 with it fixed), and x264 ~35 MB more at 1080p.
 */
export function frameProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? String(1 << 20) }
}
