import * as v from 'valibot'
import { defineAssetPlugin } from '../../core/index.js'

/** What the `crash-test` asset's callback throws. */
export const CRASH_MESSAGE = 'the crash-test plugin blew up'

/**
 * An asset plugin whose source, once opened, throws from a timer — outside any promise, as a plugin's process
 * or stream callback might — so nothing can catch it: the process meets an uncaught exception mid-render.
 * Loaded into render processes as a plugin module (`ChildConfig.pluginModules`).
 */
export const crashTest = defineAssetPlugin({
  kind: 'asset',
  name: 'crash-test',
  schema: v.looseObject({ type: v.literal('crash-test') }),
  async prepare() {
    return {
      size: { width: 16, height: 16 },
      static: true,
      async open() {
        setTimeout(() => {
          throw new Error(CRASH_MESSAGE)
        }, 50)
        return { frame: () => null, close() {} }
      },
    }
  },
})

export default [crashTest]
