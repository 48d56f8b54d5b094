/**
 * The one door to the UI's state. Components read through these hooks; actions (src/actions/)
 * are the only writers, through `getState`/`setState` on the same objects. Lint refuses imports
 * of the store files from anywhere else, so every state change can be found from here.
 */
import { createAppStore } from './app-store.ts';
import { createBillingStore } from './billing-store.ts';
import { createChatStore } from './chat-store.ts';
import { createEventsStore } from './events-store.ts';
import { createAlertsStore } from './alerts-store.ts';
import { createFleetStore } from './fleet-store.ts';
import { createSessionStore } from './session-store.ts';
import { createDeviceStore } from './device-store.ts';
import { createMediaStore } from './media-store.ts';
import { createGuestsStore } from './guests-store.ts';
import { createDestinationsStore } from './destinations-store.ts';
import { createIngestStore } from './ingest-store.ts';
import { createProjectsStore } from './projects-store.ts';
import { createStudioStore } from './studio-store.ts';
import { browserStorage } from './browser-storage.ts';
import { createSystemStore } from './system-store.ts';
import { createToastStore } from './toast-store.ts';
import { createUiStore } from './ui-store.ts';
import { createPartnerStore } from './partner-store.ts';

export const useAppStore = createAppStore(browserStorage());
export const useFleetStore = createFleetStore();
export const useSystemStore = createSystemStore();
export const useToastStore = createToastStore();
export const useUiStore = createUiStore();
export const useSessionStore = createSessionStore();
export const useProjectsStore = createProjectsStore();
export const useStudioStore = createStudioStore();
export const useDeviceStore = createDeviceStore(browserStorage());
export const useDestinationsStore = createDestinationsStore();
export const useIngestStore = createIngestStore();
export const useMediaStore = createMediaStore();
export const useBillingStore = createBillingStore();
export const useChatStore = createChatStore();
export const useEventsStore = createEventsStore(browserStorage());
export const useAlertsStore = createAlertsStore();
export const usePartnerStore = createPartnerStore();
export const useGuestsStore = createGuestsStore(browserStorage());

export { DEFAULT_CANVAS, IS_MIRRORED_STORAGE_KEY, UserType } from './app-store.ts';
export type { AppState, CanvasSize, OpenProject } from './app-store.ts';
export type { ReadinessStatus, SystemState } from './system-store.ts';
export type { Toast, ToastKind, ToastState } from './toast-store.ts';
export type { AccountSettingsPage, UiState } from './ui-store.ts';
export type { BillingBusy, BillingState } from './billing-store.ts';
export { browserStorage, writeBooleanFlag } from './browser-storage.ts';
export { initialStudioState } from './studio-store.ts';
export { initialBillingState } from './billing-store.ts';
export type { SourceRenderStatus, StudioPanel, StudioState } from './studio-store.ts';
export type { ProjectsState } from './projects-store.ts';
export { CAMERA_CHOICE_STORAGE_KEY, MICROPHONE_CHOICE_STORAGE_KEY } from './device-store.ts';
export type { DeviceState, MediaPermission } from './device-store.ts';
export { initialSignIn } from './session-store.ts';
export type { SessionState, SignInState, SignInStep } from './session-store.ts';
export { initialDestinationsState } from './destinations-store.ts';
export type { DestinationForm, DestinationsState } from './destinations-store.ts';
export { initialIngestState } from './ingest-store.ts';
export type { IngestState } from './ingest-store.ts';
export { initialFleetState } from './fleet-store.ts';
export type { FleetState, FleetStatus } from './fleet-store.ts';
export { initialMediaState } from './media-store.ts';
export type { MediaState } from './media-store.ts';
export { initialChatState } from './chat-store.ts';
export type { ChatState } from './chat-store.ts';
export { initialEventsState, readEventFilter, writeEventFilter, EVENT_FILTER_STORAGE_KEY } from './events-store.ts';
export type { EventsState } from './events-store.ts';
export type { FlagStorage } from './browser-storage.ts';
export { initialAlertsState } from './alerts-store.ts';
export type { AlertsState } from './alerts-store.ts';
export { initialPartnerState } from './partner-store.ts';
export type { LoadStatus, PartnerState } from './partner-store.ts';
export { initialGuestsState } from './guests-store.ts';
export type { GuestPageStep, GuestsState, InvitationStep } from './guests-store.ts';
