import { namesOf } from '../../platform/db/sql-ids.js';

/** Manufacturers and models (wire names; ids in this order). A model belongs to one manufacturer. */
export const Manufacturer = { Sunmi: 1, Verifone: 2 } as const;
export const MANUFACTURER_NAMES = namesOf(Manufacturer);
export const Model = {
  SunmiP2: 1,
  SunmiP2LiteSe: 2,
  VerifoneVictaMobile: 3,
  VerifoneVictaPortable: 4,
  SunmiP3H: 5,
} as const;
export const MODEL_NAMES = namesOf(Model);
export const MANUFACTURER_OF_MODEL: Record<number, number> = {
  [Model.SunmiP2]: Manufacturer.Sunmi,
  [Model.SunmiP2LiteSe]: Manufacturer.Sunmi,
  [Model.SunmiP3H]: Manufacturer.Sunmi,
  [Model.VerifoneVictaMobile]: Manufacturer.Verifone,
  [Model.VerifoneVictaPortable]: Manufacturer.Verifone,
};

/** Standalone terminals take payments on their own; only SemiIntegrated ones take POS transactions from the API. */
export const TerminalMode = { Standalone: 1, SemiIntegrated: 2 } as const;
export const TERMINAL_MODE_NAMES = namesOf(TerminalMode);

export const DeliveryStatus = { PendingShipment: 1, Shipping: 2, Active: 3, Inactive: 4 } as const;
export const DELIVERY_STATUS_NAMES = namesOf(DeliveryStatus);

export const ConnectionStatus = { Online: 1, Offline: 2 } as const;
export const CONNECTION_STATUS_NAMES = namesOf(ConnectionStatus);

/** What a terminal reports in its heartbeats (the terminal channel's `status` message). */
export interface TerminalReport {
  batteryLevel: number | null;
  /** Normal, NotNormal (e.g. out of paper) or NotSupported. */
  printerStatus: 'Normal' | 'NotNormal' | 'NotSupported' | null;
  paperOut: boolean;
  connectionType: 'WiFi' | 'Mobile' | 'Ethernet' | null;
  wifiConnectionStrength: number | null;
  mobileConnectionStrength: number | null;
  softwareVersion: string | null;
}

export interface Terminal {
  id: string;
  merchantId: string;
  serialNumber: string;
  manufacturerId: number;
  modelId: number;
  modeId: number;
  deliveryStatusId: number;
  deactivatedAt: Date | null;
  createdAt: Date;
  modifiedAt: Date;
  socketNode: number | null;
  lastSeenAt: Date | null;
  report: TerminalReport | null;
  paperOut: boolean;
}

/** A terminal whose last report is older than this is Offline: what it cannot know any more reads null. */
export const OFFLINE_AFTER_MS = 90_000;
/** How often a connected terminal reports (the channel asks for this in its welcome). */
export const HEARTBEAT_MS = 30_000;
