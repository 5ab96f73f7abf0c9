// The microphone's raw samples for drumscore serve's listener: each block of the input, its
// channels' mean, posted to the page as it comes (Float32Array, at the context's rate).
class PcmTap extends AudioWorkletProcessor {
  process(inputs) {
    const input = inputs[0];
    if (input && input.length && input[0].length) {
      const n = input[0].length;
      const mono = new Float32Array(n);
      for (const channel of input) {
        for (let i = 0; i < n; i++) mono[i] += channel[i] / input.length;
      }
      this.port.postMessage(mono, [mono.buffer]);
    }
    return true;
  }
}

registerProcessor("pcm-tap", PcmTap);
