import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A CommonJS package loaded on first call, then the same module every time: `const s3 = lazyPackage<typeof
 * S3>('@aws-sdk/client-s3')` with a type-only import beside it. For packages only some configurations use (the AWS
 * SDK, ioredis, undici): their imports cost every start ~0.15–0.3 CPU-s each, and a service on SQLite and local
 * files, a CLI run or a render process uses none of them. `require` keeps callers synchronous, where a dynamic
 * `import()` would make every constructor that needs one a promise.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined
  return () => {
    loaded ??= require(name) as T
    return loaded
  }
}
