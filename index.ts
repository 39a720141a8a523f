// reelforge's public entry: the core, the built-in plugins, and createRenderer() that joins them.
export { createRenderer, type RendererOptions } from './plugins/create-renderer.js'
export * from './core/index.js'
export * from './plugins/index.js'
export { renderSegmented, type PieceRenderer, type SegmentedOptions } from './service/queue/segments.js'
