import type { ContractError, ExecutionUpdate, ParameterValues } from '$contract/index.ts';
import type { Position } from '../editor/substitution.ts';
import { phaseOfState, type Phase } from './phase.ts';

function phaseOf(update: ExecutionUpdate | null, failure: ContractError | null, opening: boolean): Phase {
  if (failure) return 'unreachable';
  if (!update) return opening ? 'opening' : 'starting';
  return phaseOfState(update.state, update.isFinished);
}

/** One execution of one query, as the user sees it. */
export class Run {
  readonly accountId: string;
  readonly queryId: number;
  update = $state.raw<ExecutionUpdate | null>(null);
  /** Set when the run or cancel request itself failed (as opposed to the query failing). */
  failure = $state.raw<ContractError | null>(null);
  cancelling = $state(false);
  /** The user agreed to read a result the service truncated (COMPLETED_PARTIAL). */
  partialAccepted = $state(false);
  /** An execution started before (from history, or kept by a tab), being read: nothing is submitted. */
  readonly opening: boolean = false;
  phase = $derived(phaseOf(this.update, this.failure, this.opening));
  isActive = $derived(this.phase === 'starting' || this.phase === 'queued' || this.phase === 'running');
  /** `performance.now()` when `update` arrived, to extrapolate its elapsed time. */
  #receivedAt = 0;

  /** The values it ran with; null when not known (a run started elsewhere). */
  readonly parameters: ParameterValues | null;
  /** Shown when the query was opened: its latest result, not a run started now. */
  readonly isLatest: boolean;

  /**
   * Maps a position the service reports (in the SQL as it ran, values put in) to the editor;
   * null inside a value. Null when the SQL that ran is not known (a run started elsewhere).
   */
  readonly toEditor: ((at: Position) => Position | null) | null;

  constructor(
    accountId: string,
    queryId: number,
    parameters: ParameterValues | null,
    isLatest = false,
    toEditor: ((at: Position) => Position | null) | null = null,
    opening = false,
  ) {
    this.opening = opening;
    this.accountId = accountId;
    this.queryId = queryId;
    this.parameters = parameters;
    this.isLatest = isLatest;
    this.toEditor = toEditor;
  }

  accept(update: ExecutionUpdate): void {
    // Updates can cross: never step back from a finished state, nor back in time.
    const current = this.update;
    if (current && (current.isFinished || update.elapsedMs < current.elapsedMs) && !update.isFinished) return;
    this.update = update;
    this.#receivedAt = performance.now();
  }

  /** Elapsed time since submission, ticking on between updates while the run is active. */
  elapsedAt(now: number): number {
    if (!this.update) return 0;
    if (this.update.isFinished) return this.update.elapsedMs;
    return this.update.elapsedMs + Math.max(0, now - this.#receivedAt);
  }
}
