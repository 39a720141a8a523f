import { filesDir, type ServiceConfig } from '../config.js'
import { S3Storage } from './s3-storage.js'
import { LocalStorage, type Storage } from './storage.js'

/** The storage a config names: S3-compatible object storage when `s3` is set, else `<dataDir>/files`. */
export const storageFor = (config: Pick<ServiceConfig, 's3' | 'dataDir'>): Storage =>
  config.s3 ? new S3Storage(config.s3) : new LocalStorage(filesDir(config as ServiceConfig))
