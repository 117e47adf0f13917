import type { ContractError, ParameterValues, Schedule, ScheduleNotice } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

// The window's side of schedules: the list main keeps (refreshed by its event), the dialog's state
// (open, and the schedule being made or edited), and the notices of refreshes that ended.

/** What the form starts from: a new schedule of a query with its values now, or one to edit. */
export type ScheduleDraft =
  | { kind: 'new'; accountId: string; queryId: number; queryName: string; parameters: ParameterValues }
  | { kind: 'edit'; schedule: Schedule };

/** Notices on screen at most; older ones wait in main until these are dismissed (each is in the list, as its last run). */
const SHOWN_NOTICES = 4;

export class Schedules {
  list = $state.raw<Schedule[]>([]);
  skipped = $state(0);
  error = $state.raw<ContractError | null>(null);
  isOpen = $state(false);
  draft = $state.raw<ScheduleDraft | null>(null);
  /** Those main keeps until dismissed, newest first: said again when the window opens after they came. */
  notices = $state.raw<ScheduleNotice[]>([]);
  #api: Api | null = null;

  /** Listens to main (once, from the window's root) and reads the list. */
  connect(api: Api): () => void {
    this.#api = api;
    const offChanged = api.on('schedules:changed', ({ schedules, skipped }) => {
      this.list = schedules;
      this.skipped = skipped;
    });
    const offNotice = api.on('schedules:notice', (notice) => {
      this.notices = [notice, ...this.notices.filter((n) => n.id !== notice.id)];
    });
    void this.refresh();
    return () => {
      offChanged();
      offNotice();
    };
  }

  async refresh(): Promise<void> {
    const answer = await this.#api?.invoke('schedules:list', {});
    if (!answer) return;
    if (answer.ok) {
      this.list = answer.data.schedules;
      this.skipped = answer.data.skipped;
      this.notices = answer.data.notices;
    }
    this.error = answer.ok ? null : answer.error;
  }

  open(draft: ScheduleDraft | null = null): void {
    this.draft = draft;
    this.isOpen = true;
    void this.refresh();
  }

  close(): void {
    this.isOpen = false;
    this.draft = null;
  }

  get shownNotices(): ScheduleNotice[] {
    return this.notices.slice(0, SHOWN_NOTICES);
  }

  /** Seen (opened or dismissed): not said again, in this window or the next. */
  dismiss(id: string): void {
    this.notices = this.notices.filter((n) => n.id !== id);
    void this.#api?.invoke('schedules:dismiss', { noticeId: id });
  }

  /** Answers the refusal, if any. */
  async act(work: (api: Api) => Promise<{ ok: boolean; error?: ContractError }>): Promise<ContractError | null> {
    if (!this.#api) return null;
    const answer = await work(this.#api);
    if (answer.ok) await this.refresh();
    return answer.ok ? null : (answer.error ?? null);
  }
}

export const schedules = new Schedules();
