import { fileLoader, type FilePolicy } from './file.js'
import { httpLoader, type HttpLoaderOptions } from './http.js'

/** Built-in loaders: local files (every file, or only those `files` allows) and http(s). */
export const builtinLoaders = (opts: HttpLoaderOptions = {}, files?: FilePolicy) => [fileLoader(files), httpLoader(opts)]
export { fileLoader, httpLoader }
export { fileRefusal, isLocalSource, LOCAL_FILES_REFUSED, type FilePolicy } from './file.js'
export type { HttpLoaderOptions }
