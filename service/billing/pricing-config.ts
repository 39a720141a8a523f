import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import { RESOLUTIONS } from '../../core/schema/output.js'
import { show } from '../../core/schema/primitives.js'
import { checkObject, describeIssues } from '../lib/validate.js'
import { DEFAULT_PRICING, type Pricing } from './pricing.js'

const credits = v.pipe(
  v.number('must be a number of credits'),
  v.check(
    (n) => Number.isInteger(n) && n >= 0,
    (i) => `must be a whole number of credits, 0 or more, got ${show(i.input)}`,
  ),
)
const partOf = <K extends string>(keys: readonly K[]) =>
  v.strictObject(Object.fromEntries(keys.map((k) => [k, v.optional(credits)])) as Record<K, v.OptionalSchema<typeof credits, undefined>>)

/** The `pricing` key of the config file: any part of the table; what it leaves out keeps its default. */
const PricingFileSchema = v.strictObject({
  images: v.optional(v.record(v.string(), credits)),
  renderPerMinute: v.optional(partOf(RESOLUTIONS)),
  ai: v.optional(partOf(Object.keys(DEFAULT_PRICING.ai) as (keyof Pricing['ai'])[])),
  lowBalanceThreshold: v.optional(credits),
})

const defined = <T extends object>(o: T | undefined) => Object.fromEntries(Object.entries(o ?? {}).filter(([, n]) => n !== undefined))

/**
 * The price table: the defaults, with what the JSON file named by `REELFORGE_CONFIG` sets under `pricing`
 * (e.g. `{"pricing": {"ai": {"speech": 3}, "images": {"flux": 6}}}`) in their place. A file that breaks a rule
 * stops the start with every field it got wrong (`pricing.ai.speech: must be …`) — a price table that silently
 * fell back to the defaults would charge what the operator did not mean to.
 */
export function pricingFromConfig(env: NodeJS.ProcessEnv = process.env, base: Pricing = DEFAULT_PRICING): Pricing {
  if (!env.REELFORGE_CONFIG) return base
  const file = JSON.parse(readFileSync(env.REELFORGE_CONFIG, 'utf8')) as { pricing?: unknown }
  if (file.pricing === undefined) return base
  const parsed = checkObject(PricingFileSchema, file.pricing, 'pricing')
  if (!parsed.success) throw new Error(`REELFORGE_CONFIG ${env.REELFORGE_CONFIG}: invalid price table: ${describeIssues(parsed.issues)}`)
  const p = parsed.output
  return {
    images: { ...base.images, ...p.images },
    renderPerMinute: { ...base.renderPerMinute, ...defined(p.renderPerMinute) },
    ai: { ...base.ai, ...defined(p.ai) },
    lowBalanceThreshold: p.lowBalanceThreshold ?? base.lowBalanceThreshold,
  }
}
