// Short tones for "your turn" and "trick won", made with WebAudio (no sound files are downloaded).
// Off unless the player turns sounds on in the settings.

import { tableSetting } from "./settings.js";

let audio = null;

const TONES = {
  turn: [[660, 0], [880, 0.12]],
  trick: [[523, 0], [659, 0.08], [784, 0.16]],
};

/** Play the tone `kind` ("turn" or "trick") when sounds are on; counts it on <html data-sounds> (read by the tests). */
export function playTone(kind) {
  if (!tableSetting("sound") || !TONES[kind]) return;
  const root = document.documentElement;
  root.dataset.sounds = `${Number(root.dataset.sounds || 0) + 1}`;
  root.dataset.lastSound = kind;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime;
    for (const [frequency, offset] of TONES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.18, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.18);
    }
  } catch {
    /* no audio device: silence */
  }
}
