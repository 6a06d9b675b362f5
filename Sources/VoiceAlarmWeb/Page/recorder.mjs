// Recording: the phone's microphone through MediaRecorder, a live level, stopped by the button or
// at 10 minutes; a recording sent from the phone is saved as any recording is.
import { $ } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { api, live } from "./page.mjs";
import { run, tell } from "./ui.mjs";

const MAX_RECORDING = 600;
let recorder = null;

async function upload(blob, type, card) {
  const title = $("record-title-input").value.trim();
  tell(card, "Sending the recording to the bedside machine…", { lasting: true });
  const clip = await api.call("POST", "/api/clips" + (title ? "?title=" + encodeURIComponent(title) : ""), blob, type || "application/octet-stream");
  $("record-title-input").value = "";
  await live.refresh();
  // A take that stopped in the middle of a frame is kept up to its last whole frame: say so.
  const cut = clip.cutOff ? " Note: " + clip.cutOff.note + "." : "";
  return { text: "Saved '" + clip.title + "' (" + L.duration(clip.duration) + "): add it to a playlist below." + cut, about: ["clip:" + clip.id] };
}

async function startRecording() {
  if (!navigator.mediaDevices || !window.MediaRecorder) throw new Error("This browser cannot record here: send a recording from the phone instead.");
  // The voice as it is: the ringtone's loudness is set when it is built, and a call's echo
  // cancelling, noise gate and gain riding would only colour a recording made to keep.
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const chunks = [];
  const type = L.recordingType((candidate) => MediaRecorder.isTypeSupported(candidate));
  recorder = type ? new MediaRecorder(stream, { mimeType: type }) : new MediaRecorder(stream);
  const context = new (window.AudioContext || window.webkitAudioContext)();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  // The clock counts from the recorder's own start, not from the press: on a busy machine WebKit's
  // recorder began a second late, and a take the clock called 3 s held 2 s.
  let started = null;
  recorder.addEventListener("start", () => { started = Date.now(); });
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    $("level").value = peak;
    const elapsed = started === null ? 0 : (Date.now() - started) / 1000;
    $("record-time").textContent = L.clock(elapsed);
    if (elapsed >= MAX_RECORDING && recorder && recorder.state === "recording") recorder.stop();
  }, 100);
  // The recording is whole once the recorder has stopped and handed over its last data. The spec
  // hands it over before "stop"; WebKit's MP4 recorder can hand it over after, so both are waited
  // for (the last at most 15 s, which a busy machine's recorder may need): a fragmented MP4 cut
  // short does not import.
  const taking = recorder;
  const finished = new Promise((resolve) => {
    let stopped = false;
    let last = false;
    let given = false;
    const give = () => {
      if (!stopped || !last || given) return;
      given = true;
      resolve(new Blob(chunks, { type: (taking.mimeType || type || "audio/webm").split(";")[0] }));
    };
    taking.addEventListener("dataavailable", (event) => {
      if (event.data.size > 0) chunks.push(event.data);
      if (taking.state === "inactive") { last = true; give(); }
    });
    taking.addEventListener("stop", () => {
      clearInterval(timer);
      stream.getTracks().forEach((track) => track.stop());
      context.close();
      $("level").value = 0;
      recorder = null;
      stopped = true;
      if (!last) tell("record", "Finishing the recording…", { lasting: true });
      setTimeout(() => { last = true; give(); }, 15000);
      give();
    });
  });
  recorder.start(1000);
  $("record").disabled = true;
  $("record").setAttribute("aria-disabled", "true");
  $("record-stop").disabled = false;
  $("record-stop").classList.add("primary");
  $("record-stop").focus();
  tell("record", "Recording… press Stop recording when you are done.", { lasting: true });
  return finished;
}

export function startRecorder() {
  $("record").addEventListener("click", async () => {
    if (recorder) return;
    let blob;
    try {
      blob = await startRecording();
    } catch (error) {
      $("record").disabled = false;
      tell("record", L.sentence("Recording is not possible here (" + L.failureSentence(error).replace(/\.$/, "") + "): send a recording instead"), { error: true });
      return;
    }
    $("record-stop").disabled = true;
    $("record-stop").classList.remove("primary");
    if (blob.type === "audio/mp4") blob = new Blob([L.withoutRepeatedBoxes(new Uint8Array(await blob.arrayBuffer()))], { type: blob.type });
    await run(null, "record-upload", "record", () => upload(blob, blob.type, "record"));
    $("record-time").textContent = "0:00";
    $("record").disabled = false;
    $("record").removeAttribute("aria-disabled");
  });
  $("record-stop").addEventListener("click", () => { if (recorder && recorder.state === "recording") recorder.stop(); });
  $("upload-send").addEventListener("click", () => run($("upload-send"), "upload-send", "upload", async () => {
    const file = $("upload").files[0];
    if (!file) throw new Error("Choose an audio file first.");
    const said = await upload(file, file.type, "upload");
    $("upload").value = "";
    return said;
  }));
}
