/**
 * The menu editor's tree operations (app/admin/MenusScreen.tsx), pure so they are tested apart from the screen: an
 * item is addressed by its path of sibling indexes; moves keep the API's rule of at most MENU_MAX_DEPTH levels
 * (core/domain/menus/menus.ts), refusing a move that would break it rather than sending a menu the server refuses.
 */
import { MENU_MAX_DEPTH } from "../../core/domain/menus/menus.ts";

export interface EditorItem {
  /** A key for React only; the API numbers items itself. */
  key: string;
  kind: string;
  page?: string;
  object_id?: number;
  url?: string;
  href?: string;
  title: string;
  mega: boolean;
  featured: boolean;
  children: EditorItem[];
}

export type Path = readonly number[];

const depthOf = (item: EditorItem): number => 1 + Math.max(0, ...item.children.map(depthOf));

function siblingsAt(items: EditorItem[], parent: Path): EditorItem[] {
  let list = items;
  for (const i of parent) list = list[i]!.children;
  return list;
}

/** A deep copy, so that an operation never changes the state React holds. */
const copy = (items: EditorItem[]): EditorItem[] => items.map((i) => ({ ...i, children: copy(i.children) }));

export function itemAt(items: EditorItem[], path: Path): EditorItem {
  return siblingsAt(items, path.slice(0, -1))[path[path.length - 1]!]!;
}

export function updateItem(items: EditorItem[], path: Path, patch: Partial<EditorItem>): EditorItem[] {
  const next = copy(items);
  const list = siblingsAt(next, path.slice(0, -1));
  const i = path[path.length - 1]!;
  list[i] = { ...list[i]!, ...patch };
  return next;
}

export function removeItem(items: EditorItem[], path: Path): EditorItem[] {
  const next = copy(items);
  siblingsAt(next, path.slice(0, -1)).splice(path[path.length - 1]!, 1);
  return next;
}

/** Up (-1) or down (+1) among its siblings; null at either end. */
export function moveItem(items: EditorItem[], path: Path, by: -1 | 1): { items: EditorItem[]; path: Path } | null {
  const next = copy(items);
  const list = siblingsAt(next, path.slice(0, -1));
  const i = path[path.length - 1]!;
  const j = i + by;
  if (j < 0 || j >= list.length) return null;
  [list[i], list[j]] = [list[j]!, list[i]!];
  return { items: next, path: [...path.slice(0, -1), j] };
}

/** Under the sibling above it, as its last child; null for a first sibling or when it would nest too deep. */
export function indentItem(items: EditorItem[], path: Path): { items: EditorItem[]; path: Path } | null {
  const i = path[path.length - 1]!;
  if (i === 0) return null;
  const item = itemAt(items, path);
  if (path.length + depthOf(item) > MENU_MAX_DEPTH) return null;
  const next = copy(items);
  const list = siblingsAt(next, path.slice(0, -1));
  const [moved] = list.splice(i, 1);
  const above = list[i - 1]!;
  above.children.push(moved!);
  return { items: next, path: [...path.slice(0, -1), i - 1, above.children.length - 1] };
}

/** Out of its parent, just after it; null at the top level. */
export function outdentItem(items: EditorItem[], path: Path): { items: EditorItem[]; path: Path } | null {
  if (path.length < 2) return null;
  const next = copy(items);
  const parentPath = path.slice(0, -1);
  const [moved] = siblingsAt(next, parentPath).splice(path[path.length - 1]!, 1);
  const grand = siblingsAt(next, parentPath.slice(0, -1));
  const at = parentPath[parentPath.length - 1]! + 1;
  grand.splice(at, 0, moved!);
  return { items: next, path: [...parentPath.slice(0, -1), at] };
}

/** What the API takes: the items without the editor's keys (positions follow the array's order). */
export function apiItems(items: EditorItem[]): Record<string, unknown>[] {
  return items.map(({ key: _key, children, ...rest }) => ({ ...rest, children: apiItems(children) }));
}

let counter = 0;
/** The API's items with editor keys. */
export function editorItems(items: readonly Record<string, unknown>[]): EditorItem[] {
  return items.map((raw) => {
    const { id: _id, parent: _parent, position: _position, children, ...rest } = raw;
    return {
      ...(rest as Omit<EditorItem, "key" | "children">),
      key: `item-${++counter}`,
      children: editorItems((children as Record<string, unknown>[]) ?? []),
    };
  });
}

export const newKey = () => `item-${++counter}`;
