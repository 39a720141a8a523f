import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ffmpegArgs } from './args.js'
import { ffmpegBin, ffmpegReason, spawnFfmpeg } from './run.js'

/** Whether this machine's ffmpeg can use one GPU feature, and when not, what ffmpeg said. */
export interface HardwareCheck {
  ok: boolean
  reason?: string
}

export interface Hardware {
  /** `h264_nvenc` opens and encodes (L4, A10, T4, RTX; not H100/H200, which have no encoder engines). */
  nvenc: HardwareCheck
  /** `-hwaccel cuda` decodes H.264 on the GPU (NVDEC) and hands the frames back. */
  cudaDecode: HardwareCheck
}

const OFF = 'turned off by REELFORGE_HARDWARE=off'
/** The NVIDIA driver's control node: absent, no NVENC/NVDEC can open (a container without the GPU included). */
const NVIDIA_DEVICE = '/dev/nvidiactl'
const cache = new Map<string, Promise<Hardware>>()

/**
 * What the GPU can take over from the CPU here, probed once per process and ffmpeg binary. Being listed is not
 * enough: Debian's ffmpeg lists `h264_nvenc` and `cuda` on every machine, and they fail at open without an
 * NVIDIA driver's libcuda (or, in a container, without its compute/video capabilities). So each is tried on a
 * tiny input, and a failure keeps ffmpeg's own reason. Machines without an NVIDIA device node skip the ~0.3 s
 * of trying; `REELFORGE_HARDWARE=off` skips it everywhere (CPU only).
 */
export function probeHardware(): Promise<Hardware> {
  if (process.env.REELFORGE_HARDWARE === 'off') return Promise.resolve(neither(OFF))
  if (!existsSync(NVIDIA_DEVICE)) return Promise.resolve(neither(`no NVIDIA GPU here (${NVIDIA_DEVICE} is absent)`))
  const bin = ffmpegBin()
  let probed = cache.get(bin)
  // A probe that cannot even run (a full /tmp) means the CPU, not a failure cached into every later render.
  if (!probed) cache.set(bin, (probed = probeFfmpeg().catch((e: Error) => neither(`the probe failed: ${e.message}`))))
  return probed
}

const neither = (reason: string): Hardware => ({ nvenc: { ok: false, reason }, cudaDecode: { ok: false, reason } })

/** The tries themselves, uncached and whatever the device node says (`probeHardware` is the one to call). */
export async function probeFfmpeg(): Promise<Hardware> {
  const [encoders, hwaccels] = await Promise.all([listing('-encoders'), listing('-hwaccels')])
  const dir = await mkdtemp(join(tmpdir(), 'reelforge-hw-'))
  try {
    // NVENC refuses frames below ~145 pixels on some generations: probe at a size every one takes.
    const source = ffmpegArgs`-f lavfi -i testsrc2=s=256x144:r=30:d=0.2`
    const nvenc = /\bh264_nvenc\b/.test(encoders)
      ? // The options a render uses (plugins/outputs/args.ts nvencArgs): a driver too old for the p1–p7 presets fails here, not mid-render.
        attempt([...source, ...ffmpegArgs`-c:v h264_nvenc -preset p4 -tune hq -rc vbr -cq 23 -b:v 0 -g 250 -profile:v high -f null -`])
      : { ok: false, reason: "this ffmpeg has no h264_nvenc encoder (see 'ffmpeg -encoders')" }
    const decode = async (): Promise<HardwareCheck> => {
      if (!/^cuda$/m.test(hwaccels)) return { ok: false, reason: "this ffmpeg has no cuda hwaccel (see 'ffmpeg -hwaccels')" }
      const clip = join(dir, 'probe.mp4')
      const made = await attempt([...source, ...ffmpegArgs`-c:v libx264 -pix_fmt yuv420p ${clip}`])
      // ffmpeg 5.1 exits 1 when the CUDA device cannot be created ("Cannot load libcuda.so.1"), not silently in software.
      return made.ok ? attempt(ffmpegArgs`-hwaccel cuda -i ${clip} -f null -`) : made
    }
    const [encodes, decodes] = await Promise.all([nvenc, decode()])
    return { nvenc: encodes, cudaDecode: decodes }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function listing(flag: string): Promise<string> {
  const p = spawnFfmpeg(['-hide_banner', flag], { stdout: true })
  let out = ''
  p.child.stdout!.on('data', (d: Buffer) => (out += d.toString('utf8')))
  await p.exited.catch(() => undefined)
  return out
}

async function attempt(args: string[]): Promise<HardwareCheck> {
  const p = spawnFfmpeg(['-hide_banner', '-v', 'error', '-nostdin', '-y', ...args], { signal: AbortSignal.timeout(20_000) })
  const code = await p.exited.catch(() => -1)
  return code === 0 ? { ok: true } : { ok: false, reason: gpuReason(p.stderr()) }
}

/** What the driver side said first ("Cannot load libcuda.so.1", "No NVENC capable devices found"), not ffmpeg's generic last line. */
const GPU_CAUSE = /cannot load|could not dynamically load|no nvenc capable|driver|openencodesession|no device available|out of memory/i

function gpuReason(log: string): string {
  const line = log.split('\n').find((l) => GPU_CAUSE.test(l))
  return line ? line.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/i, '').trim() : ffmpegReason(log)
}
