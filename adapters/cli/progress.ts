import type { RenderProgress } from '../../core/index.js'

/** A progress display: a redrawn bar on a TTY, a plain line per 10 % otherwise (logs, CI). */
export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr) {
  let lastDecile = -1
  return {
    update(p: RenderProgress) {
      const pct = Math.min(100, Math.round(p.progress * 100))
      const detail = p.stage === 'rendering' ? ` ${p.frame}/${p.frames} frames ${p.fps.toFixed(1)} fps ETA ${formatEta(p.etaMs)}` : ''
      if (stream.isTTY) {
        const width = 24
        const filled = Math.round((pct / 100) * width)
        stream.write(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${p.stage}${detail}`)
      } else {
        const decile = Math.floor(pct / 10)
        if (decile !== lastDecile) {
          lastDecile = decile
          stream.write(`${pct}% ${p.stage}${detail}\n`)
        }
      }
    },
    done() {
      if (stream.isTTY) stream.write('\r\x1b[2K')
    },
  }
}

function formatEta(ms: number): string {
  if (!Number.isFinite(ms)) return '?'
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}
