import { defineQueue } from '../../platform/jobs/define.js';
import type { QueueDefinition, ScheduleDefinition } from '../../platform/jobs/runner.js';
import { every } from '../../platform/jobs/runner.js';
import type { DevicesService } from './devices.service.js';

const approvalsQueue = defineQueue<Record<string, never>>('devices.sandbox-approvals');

/** Sandbox only: Tap to Pay requests approve themselves five minutes after they were made. */
export function sandboxDeviceQueues(devices: DevicesService): QueueDefinition[] {
  return [approvalsQueue.handler(async () => void (await devices.approveDueRequests()))];
}

export const sandboxDeviceSchedules: ScheduleDefinition[] = [
  { name: 'devices.sandbox-approvals', queue: approvalsQueue.name, next: every(60) },
];
