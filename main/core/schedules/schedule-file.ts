import { join } from 'node:path';
import { Schedule } from '../../contract/index.ts';
import { openRecordLog } from '../executions/run-log.ts';

// The schedules on disk, a JSON line each, written again whole (atomically) at every change: they
// are few, and a change must be there after a crash. A line that cannot be read is skipped and
// counted (the list says so), never a reason not to start.

export interface ScheduleFile {
  read(): { schedules: Schedule[]; skipped: number };
  write(schedules: Schedule[]): void;
}

export function openScheduleFile(dataDir: string): ScheduleFile {
  const log = openRecordLog(join(dataDir, 'schedules.jsonl'), Schedule, (schedule) => schedule.id);
  return {
    read: () => {
      const { records, skipped } = log.read();
      return { schedules: records, skipped };
    },
    write: (schedules) => log.rewrite(schedules),
  };
}
