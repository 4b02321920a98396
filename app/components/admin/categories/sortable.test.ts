import type { Active, Over } from "@dnd-kit/core";
import { describe, expect, test } from "vitest";
import { CATEGORY_DRAG_INSTRUCTIONS, categoryAnnouncements } from "./sortable";

const order = [
  { id: 11, name: "Animals" },
  { id: 12, name: "Science & Space" },
  { id: 13, name: "Odd Jobs" },
];
const announce = categoryAnnouncements(order);
// dnd-kit hands the announcements its Active and Over objects; only their ids matter here.
const active = (id: number) => ({ id }) as unknown as Active;
const over = (id: number) => ({ id }) as unknown as Over;

describe("what a screen reader hears while a category is moved", () => {
  test("picking a category up names it and its place", () => {
    expect(announce.onDragStart({ active: active(13) })).toBe("Picked up Odd Jobs, at position 3 of 3.");
  });

  test("moving over other places names the category and the one in the place it reaches", () => {
    const drag = categoryAnnouncements(order);
    drag.onDragStart({ active: active(13) });
    // The drag starts over its own place: nothing new to say.
    expect(drag.onDragOver({ active: active(13), over: over(13) })).toBeUndefined();
    expect(drag.onDragOver({ active: active(13), over: over(12) })).toBe("Odd Jobs moved to position 2 of 3, where Science & Space is.");
    expect(drag.onDragOver({ active: active(13), over: over(11) })).toBe("Odd Jobs moved to position 1 of 3, where Animals is.");
    expect(drag.onDragOver({ active: active(13), over: over(13) })).toBe("Odd Jobs is back at position 3 of 3.");
    expect(drag.onDragOver({ active: active(13), over: null })).toBe("Odd Jobs is no longer over the list.");
  });

  test.each([
    [12, "Odd Jobs was dropped at position 2 of 3."],
    [null, "Odd Jobs was dropped outside the list and stays at position 3 of 3."],
  ])("dropping over %j: %s", (target, text) => {
    expect(announce.onDragEnd({ active: active(13), over: target === null ? null : over(target) })).toBe(text);
  });

  test("cancelling says the category stays where it was", () => {
    expect(announce.onDragCancel({ active: active(12), over: over(11) })).toBe("Moving Science & Space was cancelled. It stays at position 2 of 3.");
  });

  test("no announcement carries an id", () => {
    const announce = categoryAnnouncements(order);
    const texts = [
      announce.onDragStart({ active: active(12) }),
      announce.onDragOver({ active: active(12), over: over(13) }),
      announce.onDragEnd({ active: active(12), over: over(13) }),
      announce.onDragCancel({ active: active(12), over: null }),
    ];
    for (const text of texts) expect(text).not.toMatch(/\b1[123]\b/);
  });

  test("the instructions say how to move one from the keyboard", () => {
    expect(CATEGORY_DRAG_INSTRUCTIONS.draggable).toMatch(/Space or Enter.*arrow keys.*Escape/);
  });
});
