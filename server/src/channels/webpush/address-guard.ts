/**
 * A push subscription is a URL the server will call, so it is an SSRF door
 * (docs/notifications.md#web-push): its host must be a public internet address. Refused: loopback,
 * private, shared (CGNAT), link-local, multicast, documentation and reserved ranges, IPv6 forms
 * that carry an IPv4 address (mapped, NAT64, 6to4, Teredo), "localhost", and names that resolve
 * to any of these. Checked when a subscription is added and before each send; the sender's
 * connections also resolve through `guardedLookupOf`, so a name that changes its answer between the
 * check and the connection (DNS rebinding) still cannot reach a private address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback (::1) and the old IPv4-compatible form
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32 among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IPv4 or IPv6 literal) is a public internet address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1, ::ffff:7f00:1) is judged by its IPv4
  // address: BlockList checks it against the IPv4 ranges.
  return !NON_PUBLIC.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a URL's hostname is a name that always means this machine. */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export type Resolve = (hostname: string) => Promise<string[]>;

/** Every address `hostname` resolves to (A and AAAA), as the connection would see them. */
export const resolveAll: Resolve = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    );
  });

export type EndpointCheck =
  | { ok: true }
  /** `private`: it names or resolves to a non-public address; `unresolved`: its name has no address now. */
  | { ok: false; reason: 'private' | 'unresolved'; detail: string };

/**
 * Whether the push endpoint `url` (already known to be https) may be called: its host a public
 * literal, or a name all of whose addresses are public. `allowPrivate` (tests) lets anything in.
 */
export async function checkPushEndpoint(
  url: string,
  { allowPrivate, resolve = resolveAll }: { allowPrivate: boolean; resolve?: Resolve },
): Promise<EndpointCheck> {
  if (allowPrivate) return { ok: true };
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isLocalName(hostname)) return { ok: false, reason: 'private', detail: `${hostname} is this machine` };
  if (isIP(hostname)) {
    return isPublicAddress(hostname)
      ? { ok: true }
      : { ok: false, reason: 'private', detail: `${hostname} is not a public address` };
  }
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch (err) {
    return { ok: false, reason: 'unresolved', detail: `${hostname}: ${(err as Error).message}` };
  }
  if (addresses.length === 0)
    return { ok: false, reason: 'unresolved', detail: `${hostname} has no address` };
  const inside = addresses.find((address) => !isPublicAddress(address));
  return inside
    ? { ok: false, reason: 'private', detail: `${hostname} resolves to ${inside}` }
    : { ok: true };
}

/** Thrown into a connection whose name resolved to a non-public address. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, which is not a public address`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * A `lookup` for the sender's connections: `resolve` (node's own lookup unless a test gives
 * another), failing the connection when any address is not public, so the addresses checked are
 * the addresses connected to, whatever the name resolved to when it was checked before.
 */
export function guardedLookupOf(resolve: Resolve = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const inside = found.find((address) => !isPublicAddress(address));
        if (inside) return callback(new PrivateAddressError(hostname, inside), '', 0);
        const addresses: LookupAddress[] = found.map((address) => ({ address, family: isIP(address) }));
        if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0];
        if (!first)
          return callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}
