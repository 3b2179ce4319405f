import { SIZE, type FlowNode } from "./flow-types";
import {
  COVER_GAP,
  FIT_PADDING,
  isClear,
  onScreen,
  overlaps,
  screenRect,
  type Box,
  type Pane,
  type Viewport,
} from "./opening-view";

export { isClear, onScreen, screenRect };

/**
 * Pure moves of the graph's view (issue 20): keep a card where another was on screen, and
 * bring a box into view with the least movement. Kept apart from React so they are tested
 * as plain functions.
 */

/**
 * The view at `zoom` that draws `now` with its top-centre where `was` had its top-centre
 * under `wasView`: the same message, or the capsule, stays put on screen when the picture
 * around it changes.
 */
export function keepInPlace(was: Box, wasView: Viewport, now: Box, zoom: number): Viewport {
  const at = onScreen(was, wasView);
  const anchorX = at.x + (was.width * wasView.zoom) / 2;
  return {
    x: anchorX - (now.position.x + now.width / 2) * zoom,
    y: at.y - now.position.y * zoom,
    zoom,
  };
}

/**
 * The least move of `view` that brings `box` inside the pane, padded as a fit is, and clear
 * of the controls drawn over it (the minimap, the zoom controls); where it cannot fit, its
 * top-left stays in view (the capsule at the top of its frame, a message's first line).
 */
export function bringIntoView(box: Box, view: Viewport, pane: Pane): Viewport {
  const at = onScreen(box, view);
  const w = box.width * view.zoom;
  const h = box.height * view.zoom;
  let dx = 0;
  let dy = 0;
  if (at.x + w > pane.width - FIT_PADDING.x) dx = pane.width - FIT_PADDING.x - (at.x + w);
  if (at.x + dx < FIT_PADDING.x) dx = FIT_PADDING.x - at.x;
  if (at.y + h > pane.height - FIT_PADDING.bottom)
    dy = pane.height - FIT_PADDING.bottom - (at.y + h);
  if (at.y + dy < FIT_PADDING.top) dy = FIT_PADDING.top - at.y;
  const inside = { x: view.x + dx, y: view.y + dy, zoom: view.zoom };
  return clearOfCovers(box, inside, pane);
}

/**
 * From a view that has the box inside the pane: the least further move, up, down, left or
 * right, that takes it off every cover while keeping it inside; the view itself when the
 * box is clear already or no such move exists (a box too big to clear them).
 */
function clearOfCovers(box: Box, view: Viewport, pane: Pane): Viewport {
  const covers = pane.covers ?? [];
  const rect = screenRect(box, view);
  const hit = covers.filter((cover) => overlaps(rect, cover));
  if (hit.length === 0) return view;
  const moves: { dx: number; dy: number }[] = [];
  for (const c of hit) {
    moves.push(
      { dx: 0, dy: c.top - COVER_GAP - rect.bottom },
      { dx: 0, dy: c.bottom + COVER_GAP - rect.top },
      { dx: c.left - COVER_GAP - rect.right, dy: 0 },
      { dx: c.right + COVER_GAP - rect.left, dy: 0 },
    );
  }
  moves.sort((a, b) => Math.abs(a.dx) + Math.abs(a.dy) - (Math.abs(b.dx) + Math.abs(b.dy)));
  for (const { dx, dy } of moves) {
    const moved = { x: view.x + dx, y: view.y + dy, zoom: view.zoom };
    const r = screenRect(box, moved);
    const inside =
      r.left >= FIT_PADDING.x &&
      r.right <= pane.width - FIT_PADDING.x &&
      r.top >= FIT_PADDING.top &&
      r.bottom <= pane.height - FIT_PADDING.bottom;
    if (inside && !covers.some((cover) => overlaps(r, cover))) return moved;
  }
  return view;
}

/** The capsule's own box: the card when folded, the top of its frame when unfolded. */
export function capsuleBox(card: FlowNode): Box {
  if (card.type !== "frame") return card;
  return {
    position: {
      x: card.position.x + (card.width - SIZE.capsule.width) / 2,
      y: card.position.y + SIZE.framePad,
    },
    width: SIZE.capsule.width,
    height: SIZE.capsule.height,
  };
}

/** Two viewports are the same to the pixel (the user has not moved the view since). */
export function sameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.zoom - b.zoom) < 1e-3;
}
