// harfbuzzjs ships no types: the few calls the glyph-box reference makes.
declare module 'harfbuzzjs' {
  interface GlyphExtents {
    xBearing: number
    yBearing: number
    width: number
    height: number
  }
  interface HbFont {
    glyphExtents(glyph: number): GlyphExtents | null
    destroy(): void
  }
  interface HbFace {
    upem: number
    destroy(): void
  }
  interface HbBuffer {
    addText(text: string): void
    guessSegmentProperties(): void
    json(): { g: number }[]
    destroy(): void
  }
  interface HarfBuzz {
    createBlob(bytes: Uint8Array): { destroy(): void }
    createFace(blob: { destroy(): void }, index: number): HbFace
    createFont(face: HbFace): HbFont
    createBuffer(): HbBuffer
    shape(font: HbFont, buffer: HbBuffer): void
  }
  const ready: Promise<HarfBuzz>
  export default ready
}
