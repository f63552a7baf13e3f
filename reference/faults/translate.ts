// Faults of a translating gateway: the reference gateway's translating route (messages in, chat
// completions upstream, reference/translate/) broken one way each, and the clean route as a
// control that breaks nothing; then its route to a cloud upstream (messages in, Bedrock
// InvokeModel upstream), clean and with its errors mapped generically; then its route to Vertex
// (messages in, rawPredict upstream), clean and with every beta stripped. Each turns the
// translating route on by itself.
import type { Fault } from './types.js';

export const TRANSLATE_FAULTS: Fault[] = [
  {
    name: 'translate-clean',
    breaks: [],
    description: 'a control: translates messages requests into chat completions and the answers back, faithfully (the checks of bytes and forwarded headers skip, the checks of translated routes pass)',
    translate: {},
  },
  {
    name: 'translate-drops-system',
    breaks: ['XLATE-REQ-1'],
    description: 'translates messages into chat completions and loses the system prompt on the way',
    translate: { dropSystem: true },
  },
  {
    name: 'translate-loses-tool-calls',
    breaks: ['XLATE-ANS-1'],
    description: "translates, and maps the upstream's answer back without its tool calls (text kept)",
    translate: { loseToolCalls: true },
  },
  {
    name: 'translate-drops-thought-signature',
    breaks: ['XLATE-SIG-1'],
    description: "translates messages into chat completions, and maps the upstream's tool calls back without their Gemini thought signature (extra_content.google.thought_signature), so the next turn cannot return it",
    translate: { dropThoughtSignature: true },
  },
  {
    name: 'translate-429-as-500',
    breaks: ['XLATE-ERR-1'],
    description: "translates, and answers the upstream's 429 as a 500",
    translate: { statusAs: [429, 500] },
  },
  {
    name: 'translate-buffers-stream',
    breaks: ['XLATE-STREAM-1'],
    description: "translates, and writes the translated stream only once the upstream's has ended",
    translate: { bufferStream: true },
  },
  {
    name: 'translate-stop-as-chat',
    breaks: ['XLATE-STOP-1'],
    description: "translates messages into chat completions, and answers the upstream's finish_reason content_filter with stop_reason content_filter (the chat word), not refusal",
    translate: { stopAsChat: true },
  },
  {
    name: 'translate-bedrock-clean',
    breaks: [],
    description: 'a control: translates messages requests into Bedrock InvokeModel (the event stream decoded into messages events) and the answers and errors back, faithfully',
    translate: { to: 'bedrock' },
  },
  {
    name: 'translate-bedrock-error-type-lost',
    breaks: ['XLATE-ERR-1', 'ERR-PASS-1'],
    description: "translates messages into Bedrock, and answers every Bedrock error with its status but error.type api_error, whatever the status",
    translate: { to: 'bedrock', errorTypeLost: true },
  },
  {
    name: 'translate-bedrock-generic-message',
    breaks: ['ERR-PASS-1'],
    description: "translates messages into Bedrock, and answers a Bedrock error with its status and error.type but the message \"upstream error\" (allowed from a cloud upstream; --strict requires the upstream's message)",
    translate: { to: 'bedrock', genericMessage: true },
  },
  {
    name: 'translate-vertex-clean',
    breaks: [],
    description: "a control: translates messages requests into Vertex AI rawPredict (the model in the path, the client's betas in the anthropic-beta header) and passes the answers back, errors mapped to the messages shape",
    translate: { to: 'vertex' },
  },
  {
    name: 'translate-vertex-strips-betas',
    breaks: ['XLATE-BETA-1'],
    description: 'translates messages into Vertex AI rawPredict, and strips every anthropic-beta value on the way (the common "fix" for the betas Vertex refuses), refusing none',
    translate: { to: 'vertex', dropBetas: true },
  },
  {
    name: 'translate-bedrock-stop-as-chat',
    breaks: ['XLATE-STOP-1'],
    description: 'translates messages into Bedrock, and writes the answer\'s stop reasons through an OpenAI-shaped middle: refusal as content_filter, pause_turn and model_context_window_exceeded as stop, JSON and streamed',
    translate: { to: 'bedrock', stopAsChat: true },
  },
];
