import { nameBasedId } from '../../platform/crypto/ids.js';
import { namesOf } from '../../platform/db/sql-ids.js';

/** Contactless (Tap to Pay) status of a device (the API's `tapToPayStatusId`; the names are its `tapToPayStatus`). */
export const TapToPayStatus = { Inactive: 1, Requested: 2, Approved: 3, Active: 4, Denied: 5 } as const;
export const TAP_TO_PAY_STATUS_NAMES = namesOf(TapToPayStatus);
/** Statuses that may obtain a device token (and so take Tap to Pay payments). */
export const TOKEN_STATUSES: ReadonlySet<number> = new Set([TapToPayStatus.Approved, TapToPayStatus.Active]);

export interface Device {
  merchantId: string;
  deviceId: string;
  deviceName: string;
  apiKeyName: string | null;
  lastLoginAt: Date;
  tapToPayStatusId: number;
  tapToPayRequestedAt: Date | null;
  createdAt: Date;
  modifiedAt: Date;
  /** Who signed in on it, newest first (the API's `userProfiles`). */
  users: UserProfile[];
}

/** A dashboard user as a device lists them. */
export interface UserProfile {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * The device's id as Tessera's records name it: a uuid derived from the merchant and the id the device reports (which
 * is free text), the `source.id` of its Tap to Pay payments and the `id` of its view.
 */
export const deviceRecordId = (merchantId: string, deviceId: string) =>
  nameBasedId(`device:${merchantId}:${deviceId.toLowerCase()}`);

/** In sandbox, a request is approved by itself this long after it was made (on the business clock). */
export const SANDBOX_APPROVAL_MS = 5 * 60_000;
/** A device token's life. */
export const DEVICE_TOKEN_TTL_S = 15 * 60;
