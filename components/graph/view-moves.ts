import { SIZE, type FlowNode } from "./flow-types";
import { FIT_PADDING, type Box, type Pane, type Viewport } from "./opening-view";

/**
 * Pure moves of the graph's view (issue 20): keep a card where another was on screen, and
 * bring a box into view with the least movement. Kept apart from React so they are tested
 * as plain functions.
 */

/** Where a box is drawn on screen under a viewport. */
export function onScreen(box: Box, view: Viewport): { x: number; y: number } {
  return { x: box.position.x * view.zoom + view.x, y: box.position.y * view.zoom + view.y };
}

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
 * The least move of `view` that brings `box` inside the pane, padded as a fit is; where it
 * cannot fit, its top-left stays in view (the capsule at the top of its frame, a message's
 * first line).
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
  return { x: view.x + dx, y: view.y + dy, zoom: view.zoom };
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
