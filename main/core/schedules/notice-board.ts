import { randomUUID } from 'node:crypto';
import type { ScheduleNews, ScheduleNotice } from '../../contract/index.ts';

// The notices of scheduled refreshes the analyst has not seen yet, newest first: a run that ends
// before the window is there (at the app's start, a missed slot) is still said when it opens.

const KEPT = 10;

export class NoticeBoard {
  #notices: ScheduleNotice[] = [];

  post(news: ScheduleNews): ScheduleNotice {
    const notice = { id: randomUUID(), ...news };
    this.#notices = [notice, ...this.#notices].slice(0, KEPT);
    return notice;
  }

  list(): ScheduleNotice[] {
    return [...this.#notices];
  }

  dismiss(id: string): void {
    this.#notices = this.#notices.filter((n) => n.id !== id);
  }
}
