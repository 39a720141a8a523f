import { fileLoader } from './file.js'
import { httpLoader, type HttpLoaderOptions } from './http.js'

/** Built-in loaders: local files and http(s). */
export const builtinLoaders = (opts: HttpLoaderOptions = {}) => [fileLoader, httpLoader(opts)]
export { fileLoader, httpLoader }
export type { HttpLoaderOptions }
