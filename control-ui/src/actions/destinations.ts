import {
  createDestinationEndpoint,
  deleteDestinationEndpoint,
  destinationKinds,
  destinationOAuthPaths,
  endBroadcastEndpoint,
  getBroadcastEndpoint,
  getDestinationPickerEndpoint,
  goLiveEndpoint,
  listDestinationsEndpoint,
  listStreamDestinationsEndpoint,
  OAUTH_POPUP_SIZE,
  oauthPopupResultSchema,
  updateDestinationEndpoint,
  type DestinationType,
  type DestinationView,
  type ServerMessage,
  type StreamTarget,
  type UpdateDestinationBody,
} from '@onair/protocol';
import { call } from '../api/call.ts';
import { httpClient, type HttpClient } from '../api/http-client.ts';
import { formErrors, initialFormValues, toCreateBody, toUpdateBody, type DestinationField, type DestinationFormValues } from '../model/destinations.ts';
import { broadcastSummary, goLiveProblems } from '../model/live-panel.ts';
import { initialDestinationsState, useDestinationsStore, type DestinationsState } from '../stores/index.ts';
import { apiErrorOf, messageOf } from './api-errors.ts';
import { showToast } from './toasts.ts';

function projectIdOrThrow(): string {
  const { projectId } = useDestinationsStore.getState();
  if (!projectId) throw new Error('no project open');
  return projectId;
}

// Loads can overlap (the studio opening and the live channel (re)subscribing), and events can
// arrive while one is in flight: only the newest load may land, and only if no event came meanwhile
// (its answer could predate the event and would undo it); otherwise it reads again.
let latestLoad = 0;
let eventsReceived = 0;

/** Loads the project's destinations, the picker and the broadcast; called when the studio opens and after a reconnect. */
export async function loadDestinations(projectId: string, client: HttpClient = httpClient): Promise<void> {
  if (useDestinationsStore.getState().projectId !== projectId) useDestinationsStore.setState({ ...initialDestinationsState(), projectId, status: 'loading' });
  const load = ++latestLoad;
  const eventsAtStart = eventsReceived;
  try {
    const [list, picker, broadcast] = await Promise.all([
      call(listDestinationsEndpoint, { params: { projectId } }, client),
      call(getDestinationPickerEndpoint, { params: { projectId } }, client),
      call(getBroadcastEndpoint, { params: { projectId } }, client),
    ]);
    if (load !== latestLoad || useDestinationsStore.getState().projectId !== projectId) return;
    if (eventsReceived !== eventsAtStart) {
      await loadDestinations(projectId, client);
      return;
    }
    const health = Object.fromEntries((broadcast.broadcast?.outputs ?? []).map((o) => [o.destinationId, o]));
    useDestinationsStore.setState({
      status: 'ready',
      error: null,
      destinations: list.destinations,
      limit: list.limit,
      autoLive: list.autoLive,
      picker,
      broadcast: broadcast.broadcast,
      health,
    });
  } catch (err) {
    if (load !== latestLoad || useDestinationsStore.getState().projectId !== projectId) return;
    useDestinationsStore.setState({ status: 'error', error: messageOf(err) });
  }
}

export function closeDestinations(): void {
  closePopup();
  useDestinationsStore.setState(initialDestinationsState());
}

/** Puts a destination in the list (new or changed) and keeps the limit's count in step. */
function upsert(view: DestinationView): void {
  useDestinationsStore.setState((s) => {
    const exists = s.destinations.some((d) => d.id === view.id);
    const destinations = exists ? s.destinations.map((d) => (d.id === view.id ? view : d)) : [...s.destinations, view];
    return { destinations, limit: withCount(s.limit, destinations.length) };
  });
}

function drop(id: string): void {
  useDestinationsStore.setState((s) => {
    const destinations = s.destinations.filter((d) => d.id !== id);
    return { destinations, limit: withCount(s.limit, destinations.length), removing: s.removing?.id === id ? null : s.removing };
  });
}

function withCount(limit: DestinationsState['limit'], count: number): DestinationsState['limit'] {
  if (!limit) return limit;
  return { ...limit, count, reached: limit.maximum !== null && count >= limit.maximum };
}

// ─── Add Destination picker and the Add/Edit form ───

export function openDestinationPicker(): void {
  if (useDestinationsStore.getState().limit?.reached) return;
  useDestinationsStore.setState({ pickerOpen: true });
}

export function closeDestinationPicker(): void {
  useDestinationsStore.setState({ pickerOpen: false });
}

/**
 * The picker's one-click kinds (a destination that needs nothing from the creator: this machine's
 * own RTMP server) are added at once under their default name; the others open their form.
 */
export async function pickDestination(type: DestinationType, client: HttpClient = httpClient): Promise<void> {
  // A one-click kind is created from its type alone, and the contract's create body allows that
  // only for 'Local' (every other type needs its settings or key): the type check lets tsc see it.
  if (type !== 'Local' || destinationKinds[type].connection !== 'local') {
    startAddDestination(type);
    return;
  }
  const projectId = useDestinationsStore.getState().projectId;
  if (!projectId) return;
  closeDestinationPicker();
  try {
    upsert(await call(createDestinationEndpoint, { params: { projectId }, body: { type } }, client));
  } catch (err) {
    showToast({ kind: 'error', title: 'The destination was not added', description: messageOf(err) });
  }
}

export function startAddDestination(type: DestinationType): void {
  useDestinationsStore.setState({
    pickerOpen: false,
    form: { type, editing: null, values: initialFormValues(type), errors: {}, formError: null, saving: false, targets: null },
  });
}

export async function startEditDestination(destinationId: string, client: HttpClient = httpClient): Promise<void> {
  const destination = useDestinationsStore.getState().destinations.find((d) => d.id === destinationId);
  if (!destination) return;
  useDestinationsStore.setState({
    form: {
      type: destination.type,
      editing: destination,
      values: initialFormValues(destination.type, destination),
      errors: {},
      formError: null,
      saving: false,
      targets: null,
    },
  });
  if (destination.type === 'Facebook' && destination.authenticated) {
    try {
      const { targets } = await call(listStreamDestinationsEndpoint, { params: { projectId: destination.projectId, destinationId: destination.id } }, client);
      useDestinationsStore.setState((s) => (s.form?.editing?.id === destination.id ? { form: { ...s.form, targets } } : {}));
    } catch (err) {
      showToast({ kind: 'error', title: 'Facebook targets could not be loaded', description: messageOf(err) });
    }
  }
}

export function setDestinationFormValue<K extends keyof DestinationFormValues>(field: K, value: DestinationFormValues[K]): void {
  useDestinationsStore.setState((s) => {
    if (!s.form) return {};
    const errors = { ...s.form.errors };
    delete errors[field];
    return { form: { ...s.form, values: { ...s.form.values, [field]: value }, errors, formError: null } };
  });
}

export function closeDestinationForm(): void {
  useDestinationsStore.setState({ form: null });
}

/** Field errors of a refused save, from the api's VALIDATION_FAILED issues or the field it names. */
function errorsOfApi(err: unknown): { errors: Partial<Record<DestinationField, string>>; formError: string | null } {
  const body = apiErrorOf(err);
  if (!body) return { errors: {}, formError: messageOf(err) };
  const details = (body.details ?? {}) as { issues?: { path: string[]; message: string }[]; field?: string };
  const errors: Partial<Record<DestinationField, string>> = {};
  for (const issue of details.issues ?? []) {
    const field = issue.path.filter((p) => p !== 'settings').join('.') as DestinationField;
    if (field) errors[field] ??= issue.message;
  }
  if (details.field) errors[details.field.replace(/^settings\./, '') as DestinationField] ??= body.message;
  return { errors, formError: Object.keys(errors).length > 0 ? null : body.message };
}

/** Add Destination / Save: checks the rules first (the same as the api's), then saves; a new platform destination goes on to authenticate. */
export async function submitDestinationForm(client: HttpClient = httpClient): Promise<void> {
  const { form, projectId } = useDestinationsStore.getState();
  if (!form || !projectId || form.saving) return;
  const errors = formErrors(form.type, form.values, form.editing);
  if (Object.keys(errors).length > 0) {
    useDestinationsStore.setState({ form: { ...form, errors } });
    return;
  }
  useDestinationsStore.setState({ form: { ...form, saving: true } });
  try {
    const saved = form.editing
      ? await call(updateDestinationEndpoint, { params: { projectId, destinationId: form.editing.id }, body: toUpdateBody(form.type, form.values) }, client)
      : await call(createDestinationEndpoint, { params: { projectId }, body: toCreateBody(form.type, form.values) }, client);
    upsert(saved);
    useDestinationsStore.setState({ form: null });
    if (!saved.authenticated) authenticateDestination(saved.id);
  } catch (err) {
    useDestinationsStore.setState((s) => (s.form ? { form: { ...s.form, saving: false, ...errorsOfApi(err) } } : {}));
  }
}

/** Facebook: stream to another target (a target another Facebook destination uses is disabled in the list). */
export async function chooseStreamTarget(target: StreamTarget, client: HttpClient = httpClient): Promise<void> {
  const { form } = useDestinationsStore.getState();
  if (!form?.editing) return;
  await patch(form.editing.id, { settings: { streamDestination: target } }, client);
}

async function patch(destinationId: string, body: UpdateDestinationBody, client: HttpClient): Promise<DestinationView | null> {
  const projectId = projectIdOrThrow();
  try {
    const saved = await call(updateDestinationEndpoint, { params: { projectId, destinationId }, body }, client);
    upsert(saved);
    useDestinationsStore.setState((s) => (s.form?.editing?.id === saved.id ? { form: { ...s.form, editing: saved } } : {}));
    return saved;
  } catch (err) {
    showToast({ kind: 'error', title: 'The destination was not changed', description: messageOf(err) });
    return null;
  }
}

/** The list's toggle: switched at once, put back if the api refuses. */
export async function toggleDestination(destinationId: string, enabled: boolean, client: HttpClient = httpClient): Promise<void> {
  const before = useDestinationsStore.getState().destinations.find((d) => d.id === destinationId);
  if (!before) return;
  upsert({ ...before, enabled });
  const saved = await patch(destinationId, { enabled }, client);
  if (!saved) upsert(before);
}

// ─── Removing (spec §2 confirmation) ───

export function askRemoveDestination(destinationId: string): void {
  const destination = useDestinationsStore.getState().destinations.find((d) => d.id === destinationId) ?? null;
  useDestinationsStore.setState({ removing: destination });
}

/** 'Keep it'. */
export function keepDestination(): void {
  useDestinationsStore.setState({ removing: null });
}

/** 'Remove Destination'. */
export async function confirmRemoveDestination(client: HttpClient = httpClient): Promise<void> {
  const { removing } = useDestinationsStore.getState();
  if (!removing) return;
  try {
    await call(deleteDestinationEndpoint, { params: { projectId: removing.projectId, destinationId: removing.id } }, client);
    drop(removing.id);
    useDestinationsStore.setState((s) => ({ removing: null, form: s.form?.editing?.id === removing.id ? null : s.form }));
  } catch (err) {
    showToast({ kind: 'error', title: 'The destination was not removed', description: messageOf(err) });
  }
}

// ─── Platform authentication in a popup (spec §7 /auth/{provider}, at most 600×700) ───

let popup: Window | null = null;
/** How long the studio leaves the popup to close itself after the api confirmed the account. */
const POPUP_CLOSE_FALLBACK_MS = 3_000;
let popupListener: ((event: MessageEvent) => void) | null = null;

function closePopup(): void {
  if (popupListener) window.removeEventListener('message', popupListener);
  popupListener = null;
  popup?.close();
  popup = null;
}

export function authenticateDestination(destinationId: string): void {
  const { destinations, projectId } = useDestinationsStore.getState();
  const destination = destinations.find((d) => d.id === destinationId);
  const provider = destination ? destinationKinds[destination.type].oauthProvider : null;
  if (!destination || !provider || !projectId || typeof window === 'undefined') return;
  closePopup();
  const width = Math.min(OAUTH_POPUP_SIZE.width, window.screen.availWidth);
  const height = Math.min(OAUTH_POPUP_SIZE.height, window.screen.availHeight);
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  popup = window.open(
    destinationOAuthPaths.start(provider, projectId, destinationId),
    'onair-destination-auth',
    `popup,width=${width},height=${height},left=${left},top=${top}`,
  );
  if (!popup) {
    showToast({
      kind: 'warning',
      title: 'Allow pop-ups to connect your account',
      description: `Your browser blocked the ${destinationKinds[destination.type].label} sign-in window.`,
    });
    return;
  }
  useDestinationsStore.setState({ authenticating: destinationId });
  popupListener = (event: MessageEvent) => {
    // Only our own page may report: the popup ends on the api's origin, which serves this app.
    if (event.origin !== window.location.origin) return;
    const result = oauthPopupResultSchema.safeParse(event.data);
    if (!result.success) return;
    // The popup's last page sent this once it had loaded: closing it now races no navigation.
    closePopup();
    if (!result.data.ok) {
      useDestinationsStore.setState({ authenticating: null });
      showToast({ kind: 'error', title: 'The account was not connected', description: result.data.error ?? 'Try again.' });
    }
    // Success is confirmed by the Authenticated event, which every open studio receives.
  };
  window.addEventListener('message', popupListener);
}

// ─── Events from /ws (spec §4) and going live ───

export function receiveDestinationMessage(message: Extract<ServerMessage, { type: 'destination.event' | 'broadcast.state' | 'broadcast.health' }>): void {
  if (useDestinationsStore.getState().projectId !== message.projectId) return;
  if (message.type !== 'broadcast.health') eventsReceived++;
  switch (message.type) {
    case 'destination.event':
      if (message.event === 'Removed' || !message.destination) {
        drop(message.destinationId);
        return;
      }
      upsert(message.destination);
      if (message.event === 'Authenticated') {
        // Dismisses the 'requires authentication' warning (the row re-renders authenticated) and the popup.
        if (useDestinationsStore.getState().authenticating === message.destinationId) {
          useDestinationsStore.setState({ authenticating: null });
          // The api sends this before the popup's last page has loaded: a close now can be lost in
          // that navigation (Chromium then ignores the page's own close). The page closes itself and
          // reports; this closes a popup whose page could not, once it has had the time to load.
          const waiting = popup;
          setTimeout(() => {
            if (popup === waiting) closePopup();
          }, POPUP_CLOSE_FALLBACK_MS);
        }
        showToast({
          kind: 'success',
          title: `${destinationKinds[message.destination.type].label} connected`,
          description: message.destination.username ?? undefined,
        });
      }
      return;
    case 'broadcast.state':
      useDestinationsStore.setState((s) => ({
        broadcast: message.broadcast,
        health: message.broadcast.state === 'live' || message.broadcast.state === 'starting' ? s.health : {},
      }));
      return;
    case 'broadcast.health':
      useDestinationsStore.setState({ health: Object.fromEntries(message.outputs.map((o) => [o.destinationId, o])), encoder: message.encoder ?? null });
      return;
  }
}

/** The Go Live options beside the button: record the programme, and its pre- and post-roll. */
export function setBroadcastOptions(options: Partial<Pick<DestinationsState, 'record' | 'preRollSeconds' | 'postRollSeconds'>>): void {
  useDestinationsStore.setState(options);
}

export async function goLive(client: HttpClient = httpClient): Promise<void> {
  const projectId = projectIdOrThrow();
  if (useDestinationsStore.getState().goingLive) return;
  useDestinationsStore.setState({ goingLive: true });
  try {
    const { record, preRollSeconds, postRollSeconds } = useDestinationsStore.getState();
    const body = { ...(record ? { record } : {}), ...(preRollSeconds > 0 ? { preRollSeconds } : {}), ...(postRollSeconds > 0 ? { postRollSeconds } : {}) };
    const broadcast = await call(goLiveEndpoint, { params: { projectId }, body: Object.keys(body).length > 0 ? body : undefined }, client);
    useDestinationsStore.setState({ broadcast });
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not go live', description: messageOf(err) });
  } finally {
    useDestinationsStore.setState({ goingLive: false });
  }
}

/**
 * Go Live, deliberately: a destination that cannot receive the stream (not signed in) is named
 * first, in the check dialog, to be fixed or skipped; with none, the broadcast starts.
 */
export async function requestGoLive(client: HttpClient = httpClient): Promise<void> {
  if (goLiveProblems(useDestinationsStore.getState().destinations).length > 0) {
    useDestinationsStore.setState({ goLiveCheckOpen: true });
    return;
  }
  useDestinationsStore.setState({ goLiveCheckOpen: false });
  await goLive(client);
}

/** 'Skip it' in the check: the destination is switched off (for this broadcast and after, until switched on). */
export async function skipDestinationForGoLive(destinationId: string, client: HttpClient = httpClient): Promise<void> {
  await toggleDestination(destinationId, false, client);
}

export function closeGoLiveCheck(): void {
  useDestinationsStore.setState({ goLiveCheckOpen: false });
}

/** End Broadcast asks once before the viewers lose the stream. */
export function askEndBroadcast(): void {
  useDestinationsStore.setState({ endConfirmOpen: true });
}

export function keepBroadcasting(): void {
  useDestinationsStore.setState({ endConfirmOpen: false });
}

export function closeBroadcastSummary(): void {
  useDestinationsStore.setState({ summary: null });
}

export async function endBroadcast(client: HttpClient = httpClient): Promise<void> {
  const projectId = projectIdOrThrow();
  // What the studio saw of each output while live: the api forgets it shortly after the end.
  const { health, destinations } = useDestinationsStore.getState();
  useDestinationsStore.setState({ endConfirmOpen: false });
  try {
    const broadcast = await call(endBroadcastEndpoint, { params: { projectId } }, client);
    useDestinationsStore.setState({ broadcast, health: {}, summary: broadcastSummary(broadcast, destinations, health, Date.now()) });
  } catch (err) {
    showToast({ kind: 'error', title: 'Could not end the broadcast', description: messageOf(err) });
  }
}
