// The new-game page: shows the seats the mode needs, sends the form as JSON, opens the game.
"use strict";
const form = document.getElementById("newgame");

function mode() { return form.querySelector("input[name=mode]:checked").value; }

function showSeats() {
  const seats = mode() === "solo" ? 1 : Number(mode());
  form.querySelectorAll(".seat").forEach((label) => {
    label.hidden = Number(label.dataset.seat) >= seats;
  });
}

function request() {
  const solo = mode() === "solo";
  const seats = [...form.querySelectorAll(".seat")].filter((l) => !l.hidden)
    .map((l) => l.querySelector("input").value);
  const variants = [...form.querySelectorAll("input[name=variant_file]:checked")]
    .map((box) => box.value)
    .concat(form.elements.variants.value.split("\n").map((v) => v.trim()).filter(Boolean));
  const seed = form.elements.seed.value.trim();
  return {players: solo ? 2 : Number(mode()), solo: solo,
          lisi_level: Number(form.elements.lisi_level.value), seats: seats,
          variants: variants, box: form.elements.box.value.trim() || null,
          seed: seed === "" ? null : Number(seed)};
}

form.addEventListener("change", showSeats);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("error");
  const button = document.getElementById("start");
  error.textContent = "";
  button.disabled = true;
  button.textContent = "Setting the game up\u2026";
  try {
    const answer = await fetch("/api/games", {method: "POST", body: JSON.stringify(request()),
                                              headers: {"Content-Type": "application/json"}});
    const data = await answer.json();
    if (!answer.ok) throw new Error(data.error || answer.statusText);
    location.href = data.url;
  } catch (failure) {
    error.textContent = failure.message;
    button.disabled = false;
    button.textContent = "Start the game";
  }
});
showSeats();
