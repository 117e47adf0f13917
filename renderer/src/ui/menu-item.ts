/** One choice of a menu (MenuList), in a plain module so that code outside components can make menus. */
export interface MenuItem {
  label: string;
  run: () => void;
  disabled?: boolean;
  /** Why it is disabled, or what it does. */
  title?: string;
}
