import type { AppSettings } from '$contract/index.ts';

// The palette follows the OS through `prefers-color-scheme` media rules. Electron can force that
// query itself (nativeTheme), a browser cannot: so a chosen theme turns those rules on or off
// here, in both hosts, and the native controls follow `color-scheme`.

const DARK_QUERY = /\(prefers-color-scheme:\s*dark\)/;
const original = new WeakMap<CSSMediaRule, string>();

export function applyTheme(theme: AppSettings['theme']): void {
  document.documentElement.style.colorScheme = theme === 'system' ? '' : theme;
  document.documentElement.dataset.theme = theme;
  for (const rule of darkRules()) {
    const mediaText = original.get(rule) ?? rule.media.mediaText;
    original.set(rule, mediaText);
    rule.media.mediaText = theme === 'system' ? mediaText : theme === 'dark' ? 'all' : 'not all';
  }
}

function darkRules(): CSSMediaRule[] {
  const found: CSSMediaRule[] = [];
  for (const sheet of document.styleSheets) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // a stylesheet of another origin; the app has none
    }
    for (const rule of rules) {
      if (rule instanceof CSSMediaRule && (original.has(rule) || DARK_QUERY.test(rule.media.mediaText))) found.push(rule);
    }
  }
  return found;
}
