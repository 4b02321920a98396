import {
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type KeyboardCoordinateGetter,
  type ScreenReaderInstructions,
  type UniqueIdentifier,
} from "@dnd-kit/core";

// Spec section 9: a keyboard move is 25 px per arrow key.
const KEYBOARD_STEP = 25;
const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case "ArrowDown":
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP };
    case "ArrowUp":
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP };
    case "ArrowRight":
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP };
    case "ArrowLeft":
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP };
    default:
      return undefined;
  }
};

/** Pointer drag, and keyboard moves (Space or Enter picks up and drops, arrows move, Escape cancels). */
export function useCategorySensors() {
  return useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ["Space", "Enter"], cancel: ["Escape"], end: ["Space", "Enter", "Tab"] },
    }),
  );
}

/** How to move a category from the keyboard: dnd-kit gives it to each drag handle as its description. */
export const CATEGORY_DRAG_INSTRUCTIONS: ScreenReaderInstructions = {
  draggable:
    "To move a category, press Space or Enter to pick it up, use the up and down arrow keys to move it, then press Space or Enter to drop it in its new place, or Escape to cancel.",
};

/** What a screen reader hears while a category is moved: its name and its place in the list, never an id. */
export function categoryAnnouncements(order: readonly { id: number; name: string }[]): Announcements {
  const name = (id: UniqueIdentifier) => order.find((c) => c.id === id)?.name ?? "The category";
  const place = (id: UniqueIdentifier) => `position ${order.findIndex((c) => c.id === id) + 1} of ${order.length}`;
  // A drag starts over its own place: that is not news, and would drown the 'Picked up' line.
  let lastOver: UniqueIdentifier | null = null;
  return {
    onDragStart: ({ active }) => {
      lastOver = active.id;
      return `Picked up ${name(active.id)}, at ${place(active.id)}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === lastOver) return undefined;
      lastOver = over?.id ?? null;
      if (!over) return `${name(active.id)} is no longer over the list.`;
      if (over.id === active.id) return `${name(active.id)} is back at ${place(active.id)}.`;
      return `${name(active.id)} moved to ${place(over.id)}, where ${name(over.id)} is.`;
    },
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} was dropped at ${place(over.id)}.` : `${name(active.id)} was dropped outside the list and stays at ${place(active.id)}.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled. It stays at ${place(active.id)}.`,
  };
}
