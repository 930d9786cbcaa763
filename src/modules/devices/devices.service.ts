import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../platform/clock/clock.js';
import type { Pool } from '../../platform/db/pool.js';
import { NotFoundError, ValidationError } from '../../platform/http/errors.js';
import { ALGORITHM, type SigningKeyRing } from '../oauth/signing-keys.js';
import {
  DEVICE_TOKEN_TTL_S,
  type Device,
  deviceRecordId,
  SANDBOX_APPROVAL_MS,
  TAP_TO_PAY_STATUS_NAMES,
  TapToPayStatus,
  TOKEN_STATUSES,
  type UserProfile,
} from './devices.model.js';
import {
  approveRequestedBefore,
  findDevice,
  listDevices,
  moveTapToPay,
  recordDeviceUser,
  upsertDevice,
} from './devices.repo.js';

export interface DevicesDeps {
  pool: Pool;
  clock: Clock;
  keyring: SigningKeyRing;
  /** The token issuer (this deployment's OAuth issuer): device tokens are signed with the same keys. */
  issuer: string;
}

/** Device tokens are their own kind (`typ`), so an access token is never taken for one, nor the reverse. */
const TOKEN_TYPE = 'tap-to-pay+jwt';

/** The device ids the API takes are case-insensitive (the mobile SDKs lower-case them). */
export const normaliseDeviceId = (deviceId: string) => deviceId.trim().toLowerCase();

export class DevicesService {
  private readonly audience: string;

  constructor(private readonly deps: DevicesDeps) {
    this.audience = `${deps.issuer}/tap-to-pay`;
  }

  save(merchantId: string, deviceId: string, deviceName: string, apiKeyName: string | null): Promise<Device> {
    return upsertDevice(this.deps.pool, {
      merchantId,
      deviceId: normaliseDeviceId(deviceId),
      deviceName,
      apiKeyName,
      at: this.deps.clock.now(),
    });
  }

  /** A user signed in on the merchant's device; false when the merchant has no such device (nothing recorded). */
  recordUser(merchantId: string, deviceId: string, user: UserProfile): Promise<boolean> {
    return recordDeviceUser(this.deps.pool, merchantId, normaliseDeviceId(deviceId), user, this.deps.clock.now());
  }

  list(merchantId: string): Promise<Device[]> {
    return listDevices(this.deps.pool, merchantId);
  }

  async get(merchantId: string, deviceId: string): Promise<Device> {
    const device = await findDevice(this.deps.pool, merchantId, normaliseDeviceId(deviceId));
    if (!device) throw new NotFoundError('Device', deviceId);
    return device;
  }

  /** Inactive or Denied → Requested. Asking again while Requested changes nothing; Approved or Active → 400. */
  async activate(merchantId: string, deviceId: string): Promise<Device> {
    const device = await this.get(merchantId, deviceId);
    if (device.tapToPayStatusId === TapToPayStatus.Requested) return device;
    const moved = await moveTapToPay(
      this.deps.pool,
      merchantId,
      device.deviceId,
      [TapToPayStatus.Inactive, TapToPayStatus.Denied],
      TapToPayStatus.Requested,
      this.deps.clock.now(),
    );
    if (!moved) throw this.refused(device, 'requested');
    return moved;
  }

  /** The operator's decision on a Requested device. */
  async decide(merchantId: string, deviceId: string, approve: boolean): Promise<Device> {
    const device = await this.get(merchantId, deviceId);
    const to = approve ? TapToPayStatus.Approved : TapToPayStatus.Denied;
    const moved = await moveTapToPay(
      this.deps.pool,
      merchantId,
      device.deviceId,
      [TapToPayStatus.Requested],
      to,
      this.deps.clock.now(),
    );
    if (!moved) throw this.refused(device, approve ? 'approved' : 'denied');
    return moved;
  }

  /** Sandbox: requests five minutes old (business clock) are approved. */
  approveDueRequests(): Promise<number> {
    const now = this.deps.clock.now();
    return approveRequestedBefore(this.deps.pool, new Date(now.getTime() - SANDBOX_APPROVAL_MS), now);
  }

  /** A short-lived token bound to merchant and device; an Approved device becomes Active with its first one. */
  async issueToken(merchantId: string, deviceId: string): Promise<{ jwtToken: string; expiresAt: string }> {
    const device = await this.get(merchantId, deviceId);
    if (!TOKEN_STATUSES.has(device.tapToPayStatusId)) {
      throw ValidationError.field(
        'deviceId',
        `Tap to Pay is ${TAP_TO_PAY_STATUS_NAMES[device.tapToPayStatusId]} on this device: only an approved device obtains a token.`,
      );
    }
    const now = this.deps.clock.now();
    if (device.tapToPayStatusId === TapToPayStatus.Approved) {
      await moveTapToPay(
        this.deps.pool,
        merchantId,
        device.deviceId,
        [TapToPayStatus.Approved],
        TapToPayStatus.Active,
        now,
      );
    }
    const key = this.deps.keyring.signingKey();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expires = issuedAt + DEVICE_TOKEN_TTL_S;
    const jwtToken = await new SignJWT({ mid: merchantId })
      .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: TOKEN_TYPE })
      .setIssuer(this.deps.issuer)
      .setAudience(this.audience)
      .setSubject(device.deviceId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expires)
      .sign(key.privateKey!);
    return { jwtToken, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * The device a Tap to Pay payment comes from: its token must be valid, this merchant's, and its device still
   * allowed (a device the operator turned off stops at once, whatever tokens it holds). Otherwise a 400 naming the
   * header.
   */
  /** The record id (deviceRecordId) of the device a token vouches for: a Tap to Pay payment's source. */
  async tapToPaySource(merchantId: string, token: string | undefined): Promise<string> {
    const device = await this.deviceOfToken(merchantId, token);
    return deviceRecordId(device.merchantId, device.deviceId);
  }

  async deviceOfToken(merchantId: string, token: string | undefined): Promise<Device> {
    const refuse = (why: string) => ValidationError.field('x-device-token', why);
    if (!token)
      throw refuse("A Tap to Pay payment (cardDataSource 3 NFC) needs the device's token in 'x-device-token'.");
    let claims: { sub?: string; mid?: unknown };
    try {
      const verified = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await this.deps.keyring.verificationKey(header.kid) : undefined;
          if (!key) throw new joseErrors.JWKSNoMatchingKey();
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: this.deps.issuer,
          audience: this.audience,
          typ: TOKEN_TYPE,
          currentDate: this.deps.clock.now(),
        },
      );
      claims = verified.payload as typeof claims;
    } catch {
      throw refuse("'x-device-token' is not a valid device token (expired, altered or not a device token).");
    }
    if (claims.mid !== merchantId || !claims.sub) throw refuse("'x-device-token' belongs to another merchant.");
    const device = await findDevice(this.deps.pool, merchantId, claims.sub);
    if (!device || !TOKEN_STATUSES.has(device.tapToPayStatusId)) {
      throw refuse('Tap to Pay is not enabled on the device of this token.');
    }
    return device;
  }

  private refused(device: Device, move: string): ValidationError {
    return ValidationError.field(
      'deviceId',
      `Tap to Pay cannot be ${move}: it is ${TAP_TO_PAY_STATUS_NAMES[device.tapToPayStatusId]} on this device.`,
    );
  }
}
