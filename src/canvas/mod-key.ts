/**
 * How the Control key is written in tooltips and menus: "⌘" on a Mac. Apart from the shortcut
 * list (shortcuts.ts), which only the help dialog needs, so the toolbar does not carry it.
 */
export const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
