import { createHash } from 'node:crypto'
import { createCanvas } from '@napi-rs/canvas'
import { defineProviderPlugin, type ProviderPlugin } from '../../core/index.js'
import { wrapText } from '../lib/text/wrap.js'

/**
 * A local stand-in for every model: a deterministic picture (same model, prompt, size, style and seed →
 * the same PNG bytes) of exactly the requested size, marked "sandbox". Sandbox keys use it, and so does any
 * model without a configured provider — real, renderable images with no network and no cost.
 */
export const sandboxProvider: ProviderPlugin = defineProviderPlugin({
  kind: 'provider',
  name: 'sandbox',
  models: ['dall-e-3', 'flux', 'stable-diffusion'],
  async generate(req) {
    const digest = createHash('sha256')
      .update(JSON.stringify([req.model, req.prompt, req.width, req.height, req.style ?? '', req.negativePrompt ?? '', req.steps ?? 0, req.seed ?? 0]))
      .digest()
    const hue = (i: number) => Math.round((digest[i]! / 255) * 360)
    const { width: w, height: h } = req
    const canvas = createCanvas(w, h)
    const g = canvas.getContext('2d')
    const bg = g.createLinearGradient(0, 0, w, h)
    bg.addColorStop(0, `hsl(${hue(0)}, 65%, 45%)`)
    bg.addColorStop(1, `hsl(${hue(1)}, 65%, 25%)`)
    g.fillStyle = bg
    g.fillRect(0, 0, w, h)
    for (let i = 0; i < 6; i++) {
      g.fillStyle = `hsla(${hue(2 + i)}, 80%, 60%, 0.35)`
      g.beginPath()
      g.arc((digest[8 + i]! / 255) * w, (digest[14 + i]! / 255) * h, ((digest[20 + i]! / 255) * 0.3 + 0.1) * Math.min(w, h), 0, Math.PI * 2)
      g.fill()
    }
    const px = Math.max(10, Math.round(Math.min(w, h) / 18))
    g.font = `600 ${px}px sans-serif`
    g.fillStyle = 'rgba(255, 255, 255, 0.9)'
    g.textBaseline = 'top'
    wrapText(req.prompt, w - 2 * px, (s) => g.measureText(s).width)
      .slice(0, 6)
      .forEach((line, i) => g.fillText(line, px, px + i * px * 1.25))
    g.font = `700 ${Math.round(px * 0.8)}px sans-serif`
    g.fillText(`SANDBOX · ${req.model}`, px, h - px * 1.6)
    return { data: await canvas.encode('png'), mime: 'image/png', provider: 'sandbox', upstreamModel: 'sandbox' }
  },
})
