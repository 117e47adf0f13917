// Where an execution stands, in the words the UI uses, from the service's state strings.

export type Phase =
  'starting' | 'opening' | 'queued' | 'running' | 'completed' | 'partial' | 'failed' | 'cancelled' | 'expired' | 'finished' | 'unreachable';

export function phaseOfState(state: string, isFinished: boolean): Phase {
  switch (state) {
    case 'QUERY_STATE_PENDING':
      return 'queued';
    case 'QUERY_STATE_EXECUTING':
      return 'running';
    case 'QUERY_STATE_COMPLETED':
      return 'completed';
    case 'QUERY_STATE_COMPLETED_PARTIAL':
      return 'partial';
    case 'QUERY_STATE_FAILED':
      return 'failed';
    case 'QUERY_STATE_CANCELLED':
      return 'cancelled';
    case 'QUERY_STATE_EXPIRED':
      return 'expired';
    default:
      // A state this version does not know yet: trust the service's own verdict.
      return isFinished ? 'finished' : 'running';
  }
}

export const PHASE_LABELS: Record<Phase, string> = {
  starting: 'Submitting…',
  opening: 'Opening the result…',
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  partial: 'Completed with a partial result',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Result expired',
  finished: 'Finished',
  unreachable: 'State unknown',
};
