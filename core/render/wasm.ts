/** Compiled modules by their bytes (base64): each compiled once per process. */
const compiled = new Map<string, WebAssembly.Module>()

/**
 * An instance of one of the project's WebAssembly modules (`*.wasm.ts`, assembled by `npm run build:wasm`) on
 * `memory`, which it imports as `env.memory`: each instance owns its memory, the module is compiled once.
 */
export function wasmInstance<T>(base64: string, memory: WebAssembly.Memory): T {
  let module = compiled.get(base64)
  if (!module) compiled.set(base64, (module = new WebAssembly.Module(Buffer.from(base64, 'base64'))))
  return new WebAssembly.Instance(module, { env: { memory } }).exports as T
}
