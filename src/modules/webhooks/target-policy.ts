import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhook deliveries may go. Only public unicast addresses, always; a sandbox operator may also allow loopback
 * (127.0.0.0/8, ::1, localhost) for local development, and then plain http:// for loopback hosts only. Checked when
 * an endpoint is saved (the URL's host and every address its name resolves to) and again on every new connection
 * (a name may resolve elsewhere later).
 */
export interface TargetPolicy {
  allowLoopback: boolean;
}

export class BlockedTargetError extends Error {
  readonly code = 'WEBHOOK_TARGET_BLOCKED';
}

export const MAX_ENDPOINT_URL_LENGTH = 2000;

/** Why an address may not be a delivery target, or undefined when it may. */
export function addressProblem(address: string, policy: TargetPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  if (isIpv4Compatible(ipaddr.parse(canonical(address)))) {
    // ::/96 (RFC 4291 deprecated it): ::127.0.0.1 and ::a9fe:a9fe are IPv4 addresses in disguise, whatever ipaddr.js
    // makes of them (process() turns the dotted form into IPv4, and files the hex form, as URLs write it, unicast).
    return `${address} is an IPv4-compatible IPv6 address (::/96, deprecated); deliveries go to public addresses only`;
  }
  // process() unwraps IPv4-mapped IPv6 (::ffff:10.0.0.1), so a mapped private address is judged as the private one.
  const range = ipaddr.process(canonical(address)).range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${address} is a ${describeRange(range)} address; deliveries go to public addresses only`;
}

/**
 * An IPv6 address as URLs write it (hex groups only). ipaddr.js reads the dotted form `::127.0.0.1` as IPv4-mapped,
 * which it is not; the URL parser reads it as what it is, `::7f00:1`.
 */
function canonical(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** In ::/96 but not :: or ::1 (those are unspecified and loopback, judged as such). */
function isIpv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() !== 'ipv6') return false;
  const parts = (address as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
}

function describeRange(range: string): string {
  switch (range) {
    case 'linkLocal':
      return 'link-local (or cloud metadata)';
    case 'uniqueLocal':
      return 'unique-local';
    case 'carrierGradeNat':
      return 'shared (carrier-grade NAT)';
    default:
      return range.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
  }
}

function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The problems with an endpoint URL that can be seen without the network: scheme, credentials, and a host that is an
 * IP literal or a localhost name. Returns the parsed URL when these pass.
 */
export function staticUrlProblem(raw: string, policy: TargetPolicy): { url?: URL; problem?: string } {
  if (raw.length > MAX_ENDPOINT_URL_LENGTH) return { problem: `must be at most ${MAX_ENDPOINT_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'must be an absolute https:// URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an https:// URL' };
  if (url.username || url.password) return { problem: 'must not contain credentials' };
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  const loopbackHost = literal ? ipaddr.process(host).range() === 'loopback' : isLocalhostName(host);
  if (url.protocol === 'http:' && !(policy.allowLoopback && loopbackHost)) {
    return { problem: 'must be an https:// URL' };
  }
  if (literal) {
    const problem = addressProblem(host, policy);
    if (problem) return { problem };
  } else if (isLocalhostName(host) && !policy.allowLoopback) {
    return { problem: `${host} is a loopback name; deliveries go to public addresses only` };
  }
  return { url };
}

/** Every problem with an endpoint URL, resolving its host name (each resolved address must be allowed). */
export async function endpointUrlProblem(raw: string, policy: TargetPolicy): Promise<string | undefined> {
  const { url, problem } = staticUrlProblem(raw, policy);
  if (!url) return problem;
  const host = hostOf(url);
  if (isIP(host) !== 0) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    );
  } catch {
    return `host ${host} does not resolve`;
  }
  for (const { address } of addresses) {
    const blocked = addressProblem(address, policy);
    if (blocked) return `${host} resolves to ${blocked}`;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for outbound sockets that refuses the connection when any resolved address is not allowed, so a name
 * re-pointed at a private address after the endpoint was saved (DNS rebinding) is still caught.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const problem = addressProblem(address, policy);
        if (problem) return callback(new BlockedTargetError(`${hostname} resolves to ${problem}`), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new BlockedTargetError(`${hostname} did not resolve`), []);
      callback(null, first.address, first.family);
    });
  };
}
