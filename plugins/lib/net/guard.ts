import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'
import type { Agent, buildConnector } from 'undici'
import { undici } from './undici.js'

/**
 * Which addresses outgoing requests built from user input (asset, font, callback and webhook URLs) may reach.
 * By default every public address: loopback, private, link-local, carrier-grade NAT, multicast and cloud
 * metadata addresses are refused. `allow` re-opens networks, as CIDRs or single addresses
 * (`['127.0.0.0/8', '::1']`); `'*'` turns the guard off (trusted input only).
 */
export interface NetworkPolicy {
  allow?: readonly string[]
}

/** Why a refused address is refused, by range; checked in order. */
const RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['0.0.0.0', 8, 'ipv4', '"this network"'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['fc00::', 7, 'ipv6', 'private (unique local)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
  ['fd00:ec2::', 32, 'ipv6', 'cloud metadata'],
]

/** A compiled policy: `refusal(ip)` is undefined when the address may be reached, else the reason. */
export interface AddressGuard {
  refusal(ip: string): string | undefined
}

export function addressGuard(policy: NetworkPolicy = {}): AddressGuard {
  const allowAll = policy.allow?.includes('*') ?? false
  const allowed = new BlockList()
  for (const entry of policy.allow ?? []) {
    if (entry === '*') continue
    const [net, bits] = entry.split('/')
    const family = isIP(net!)
    if (!family) throw new TypeError(`network.allow: "${entry}" is not an IP address or CIDR`)
    const type = family === 4 ? 'ipv4' : 'ipv6'
    if (bits === undefined) allowed.addAddress(net!, type)
    else allowed.addSubnet(net!, Number(bits), type)
  }
  const ranges = RANGES.map(([net, bits, type, why]) => {
    const list = new BlockList()
    list.addSubnet(net, bits, type)
    return { list, type, why }
  })
  return {
    refusal(raw) {
      if (allowAll) return undefined
      let ip = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
      // IPv4-mapped IPv6 (::ffff:127.0.0.1) reaches the IPv4 address: judge that one.
      ip = unmapped(ip)
      const family = isIP(ip)
      if (!family) return `"${raw}" is not an IP address`
      const type = family === 4 ? 'ipv4' : 'ipv6'
      if (allowed.check(ip, type)) return undefined
      const hit = ranges.find((r) => r.type === type && r.list.check(ip, type))
      return hit ? `${ip} is a ${hit.why} address` : undefined
    },
  }
}

/** `::ffff:127.0.0.1` and its hex spelling `::ffff:7f00:1` (as URL parsing writes it) → `127.0.0.1`. */
function unmapped(ip: string): string {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (dotted) return dotted[1]!
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip)
  if (!hex) return ip
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)]
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
}

/** The error a refused connection fails with; the message says how to allow it. */
export class AddressRefused extends Error {
  readonly code = 'E_ADDRESS_REFUSED'
  constructor(host: string, reason: string) {
    super(`refused to connect to ${host}: ${reason} (private networks are blocked; allow them with network.allow)`)
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for `net.connect` (and so undici's connector and `node:http`) that resolves every address of a
 * name and refuses the connection if any of them is refused. Literal IPs never reach a lookup: check those apart.
 */
export function guardedLookup(guard: AddressGuard) {
  return (hostname: string, options: { all?: boolean }, cb: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, [])
      const refused = addresses.map((a) => guard.refusal(a.address)).find(Boolean)
      if (refused) return cb(new AddressRefused(hostname, refused), [])
      if (options.all) return cb(null, addresses)
      cb(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

/**
 * An undici Agent that checks every address it connects to, after DNS resolution — so a public name that
 * resolves to 127.0.0.1, a literal IP, and every redirect hop (each is a new connection) are all judged.
 */
export function guardedAgent(policy: NetworkPolicy = {}, opts: { connectTimeout?: number } = {}): Agent {
  const guard = addressGuard(policy)
  const lookup = guardedLookup(guard)
  const { Agent, buildConnector: connectorOf } = undici()
  const connector = connectorOf({ timeout: opts.connectTimeout ?? 10_000, lookup } as buildConnector.BuildOptions)
  return new Agent({
    connect(options, cb) {
      const host = options.hostname.replace(/^\[|\]$/g, '')
      // Literal IPs skip DNS (and so the lookup above): judge them here.
      if (isIP(host)) {
        const refused = guard.refusal(host)
        if (refused) return cb(new AddressRefused(host, refused), null)
      }
      return connector(options, cb)
    },
  })
}

const compiled = new WeakMap<NetworkPolicy, AddressGuard>()

/**
 * Checks a URL a user hands in (callback, webhook) before it is stored: a clear refusal now beats a
 * delivery that can never succeed. Resolves the host; the connection is checked again when it is made.
 */
export async function checkUrl(url: string, policy: NetworkPolicy = {}): Promise<string | undefined> {
  // Called per request: compile each policy once.
  let guard = compiled.get(policy)
  if (!guard) compiled.set(policy, (guard = addressGuard(policy)))
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not a valid URL'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `must be an http(s) URL, got ${parsed.protocol}`
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  if (!host) return 'has no host'
  if (isIP(host)) {
    const why = guard.refusal(host)
    return why ? `refused: ${why}` : undefined
  }
  const addresses = await new Promise<LookupAddress[] | undefined>((done) => dnsLookup(host, { all: true }, (err, a) => done(err ? undefined : a)))
  // A name that does not resolve now may later: delivery retries will say so.
  const why = addresses?.map((a) => guard.refusal(a.address)).find(Boolean)
  return why ? `refused: ${host} resolves to ${why.replace(/ is a /, ', a ')}` : undefined
}
