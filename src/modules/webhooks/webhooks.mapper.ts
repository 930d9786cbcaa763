import { withFields } from '../../platform/objects.js';
import type { EndpointRow, LogDetailRow, LogRow } from './webhooks.repo.js';

export function endpointView(row: EndpointRow) {
  const created = row.created_at.toISOString();
  return {
    endpointId: row.id,
    id: row.id,
    webhookName: row.name,
    name: row.name,
    endpointName: row.name,
    endpointUrl: row.url,
    status: row.status,
    endpointStatus: row.status,
    eventTypes: row.event_types,
    createdAt: created,
    createdOn: created,
    modifiedOn: row.modified_at.toISOString(),
  };
}

export function logView(row: LogRow) {
  return {
    deliveryLogId: row.id,
    id: row.id,
    webhookEndpointId: row.endpoint_id,
    endpointId: row.endpoint_id,
    webhookName: row.endpoint_name,
    endpointName: row.endpoint_name,
    endpointUrl: row.endpoint_url,
    eventId: row.message_id,
    eventType: row.event_type,
    deliveryAttemptStatus: row.status,
    deliveryLogStatus: row.status,
    status: row.status,
    responseStatusCode: row.response_status_code,
    endpointHTTPResponseCode: row.response_status_code,
    roundTripDurationMs: row.duration_ms,
    durationMs: row.duration_ms,
    attemptNumber: row.attempt_number,
    errorMessage: row.error_message,
    isPing: row.is_ping,
    isManualRetry: row.is_manual && !row.is_ping,
    createdOn: row.created_at.toISOString(),
    nextRetryAt: row.next_retry_at?.toISOString() ?? null,
  };
}

export function logDetailView(row: LogDetailRow) {
  return withFields(logView(row), {
    requestHeaders: row.request_headers,
    requestBody: row.request_body,
    responseHeaders: row.response_headers,
    responseBody: row.response_body,
  });
}

/** Column order of the CSV export: the list view's fields. */
export const EXPORT_COLUMNS = [
  'deliveryLogId',
  'webhookEndpointId',
  'webhookName',
  'endpointUrl',
  'eventId',
  'eventType',
  'deliveryAttemptStatus',
  'responseStatusCode',
  'roundTripDurationMs',
  'attemptNumber',
  'errorMessage',
  'isPing',
  'isManualRetry',
  'createdOn',
  'nextRetryAt',
] as const;
