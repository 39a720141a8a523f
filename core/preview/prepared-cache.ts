import type { PreparedAsset } from '../plugin.js'

interface Entry {
  asset: PreparedAsset
  /** What preparing it remarked (a substituted font): said again by every plan that uses it. */
  remarks: string[]
}

/**
 * A preview session's prepared assets, by prepare key (core/plan/prepare-key.ts): a changed edit prepares only
 * the clips whose key changed. A failed prepare is not kept. `retain` after a plan is taken disposes what it no
 * longer uses.
 */
export class PreparedCache {
  private readonly entries = new Map<string, Promise<Entry>>()

  /** The asset prepared for `key`, preparing it with `run` the first time; the keys it answered go into `used`. */
  async prepare(
    key: string,
    run: (warn: (message: string) => void) => Promise<PreparedAsset>,
    warn: (message: string) => void,
    used: Set<string>,
  ): Promise<PreparedAsset> {
    used.add(key)
    let entry = this.entries.get(key)
    if (entry) {
      const { asset, remarks } = await entry
      remarks.forEach(warn)
      return asset
    }
    const remarks: string[] = []
    entry = run((message) => (remarks.push(message), warn(message))).then((asset) => ({ asset, remarks }))
    this.entries.set(key, entry)
    entry.catch(() => this.entries.get(key) === entry && this.entries.delete(key))
    return (await entry).asset
  }

  /** Disposes every asset whose key is not in `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const [key, entry] of this.entries) {
      if (keep.has(key)) continue
      this.entries.delete(key)
      entry.then(
        ({ asset }) => asset.dispose?.(),
        () => {},
      )
    }
  }

  /** Whether an asset was prepared (or is being prepared) for `key`. */
  has(key: string): boolean {
    return this.entries.has(key)
  }
}
