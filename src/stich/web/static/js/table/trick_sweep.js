// A completed trick that visibly goes to its winner: near the end of the time a trick stays in the middle,
// its cards slide towards the winner's seat and fade. Off with the player's setting or the system's
// reduced-motion preference (then the trick simply stays and is cleared).

import { onEllipse, seatAngle } from "./felt.js";

/** How long the slide takes (ms); it ends when the trick is cleared. */
export const SWEEP_MS = 450;

/**
 * Send the held trick's cards (in `container`) to `winner` in the last SWEEP_MS before `until`.
 * Called after each drawing of the trick: a drawing during the slide shows the cards where the slide ends.
 */
export function sweepTrick(container, { winner, until, viewpoint, seats, enabled }) {
  clearTimeout(container.sweepTimer);
  delete container.dataset.sweep;
  if (!enabled || typeof winner !== "number") return;
  const target = onEllipse(seatAngle(winner, viewpoint, seats), 43, 41);
  const go = () => {
    const width = container.clientWidth;
    const height = container.clientHeight;
    for (const card of container.querySelectorAll(".card.in-trick")) {
      const x = ((target.x - parseFloat(card.style.left)) * width) / 100;
      const y = ((target.y - parseFloat(card.style.top)) * height) / 100;
      card.style.setProperty("--sweep-x", `${x.toFixed(0)}px`);
      card.style.setProperty("--sweep-y", `${y.toFixed(0)}px`);
      card.classList.add("sweep");
    }
    container.dataset.sweep = String(winner);
  };
  const wait = until - SWEEP_MS - Date.now();
  if (wait <= 0) go();
  else container.sweepTimer = setTimeout(go, wait);
}
