import { z } from 'zod';

// Where the window was, per display: a laptop's own screen and the monitor on the desk each get
// the size and place the user last gave the window there. A display that is gone, or a place now
// off screen, falls back to something visible.

const Rect = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type Rect = z.infer<typeof Rect>;

const Placement = z.object({ bounds: Rect, maximized: z.boolean() });
export type Placement = z.infer<typeof Placement>;

export const WindowPlacements = z.object({
  byDisplay: z.record(z.string().max(100), Placement),
  /** The display the window was on when it last closed. */
  last: z.string().max(100).nullable(),
});
export type WindowPlacements = z.infer<typeof WindowPlacements>;

export const noPlacements = (): WindowPlacements => ({ byDisplay: {}, last: null });

export interface DisplayInfo {
  bounds: Rect;
  workArea: Rect;
}

/** Display ids change between sessions on some systems; a display's place and size do not. */
export function displayKey(display: DisplayInfo): string {
  const { x, y, width, height } = display.bounds;
  return `${x},${y},${width}x${height}`;
}

/** Where to open: the place kept for the display last used, if it is still there; else null (the default size, centred). */
export function placementFor(saved: WindowPlacements, displays: readonly DisplayInfo[]): Placement | null {
  const keys = saved.last === null ? [] : [saved.last];
  keys.push(...Object.keys(saved.byDisplay).filter((key) => key !== saved.last));
  for (const key of keys) {
    const display = displays.find((one) => displayKey(one) === key);
    const placement = saved.byDisplay[key];
    if (display !== undefined && placement !== undefined)
      return { bounds: fitInto(placement.bounds, display.workArea), maximized: placement.maximized };
  }
  return null;
}

export function rememberPlacement(saved: WindowPlacements, display: DisplayInfo, placement: Placement): WindowPlacements {
  const key = displayKey(display);
  return { byDisplay: { ...saved.byDisplay, [key]: placement }, last: key };
}

/** No larger than the work area, and wholly inside it (the taskbar and menu bar excluded). */
function fitInto(bounds: Rect, area: Rect): Rect {
  const width = Math.min(bounds.width, area.width);
  const height = Math.min(bounds.height, area.height);
  const x = Math.min(Math.max(bounds.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(bounds.y, area.y), area.y + area.height - height);
  return { x, y, width, height };
}
