//! Typing on a phone: the browser opens its keyboard only for a focused
//! `<input>`, so bevy_egui keeps a hidden one (its "text agent") and
//! focuses it when egui edits text. It decides at the end of a touch from
//! the frame drawn before the touch, when the tapped field was not yet
//! focused: the first tap opened no keyboard, the second did (issue 66).
//!
//! Here the agent follows egui's own output, once the frame that handled
//! the tap has run: focused while a text field is, blurred when none is.
//! On Android the browser still counts the tap as the reason, so the
//! keyboard opens; iOS Safari opens it only inside the touch's own
//! handler, which bevy_egui's Safari path keeps doing.
//!
//! The keyboard's Enter ("Go", "Done") reaches egui too: bevy_egui passes
//! on only Backspace from the agent, so a name typed on a phone could be
//! finished only by tapping beside it.

use bevy::prelude::*;

/// Desktop: nothing to do (the window has the keyboard).
#[cfg(not(target_arch = "wasm32"))]
pub fn plugin(_app: &mut App) {}

#[cfg(target_arch = "wasm32")]
pub fn plugin(app: &mut App) {
    if phone() {
        listen_for_enter();
        if let Some(wake) = super::wake::waker(app) {
            wake_on_typing(wake);
        }
        app.add_systems(
            PreUpdate,
            pass_on_enter.in_set(bevy_egui::EguiInputSet::ReadBevyMessages),
        )
        .add_systems(
            PostUpdate,
            follow_egui.after(bevy_egui::EguiPostUpdateSet::ProcessOutput),
        );
    }
}

/// Enters pressed on the agent's keyboard since the last update.
#[cfg(target_arch = "wasm32")]
static ENTERS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Counts the keyboard's Enter while the agent has the focus (not the
/// one that ends an IME composition).
#[cfg(target_arch = "wasm32")]
fn listen_for_enter() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let on_key =
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(|event: web_sys::KeyboardEvent| {
            let in_agent = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .is_some_and(|e| e.id() == "egui_text_agent");
            if in_agent && event.key() == "Enter" && !event.is_composing() {
                ENTERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    if document
        .add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())
        .is_ok()
    {
        // The page's for as long as the page lives.
        on_key.forget();
    }
}

/// Keys, text and an IME's composition that bevy_egui's text agent hands
/// on through a channel read at the next update: each wakes the app (issue
/// 67: it sleeps until something happens), once the agent's own listener
/// has run (a timer of 0: winit wakes the app within the call).
#[cfg(target_arch = "wasm32")]
fn wake_on_typing(wake: super::wake::Waker) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let later = Closure::<dyn Fn()>::new(move || wake()).into_js_value();
    let on_event = Closure::<dyn Fn()>::new(move || {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback(later.unchecked_ref());
        }
    })
    .into_js_value();
    for kind in [
        "keydown",
        "keyup",
        "input",
        "compositionstart",
        "compositionupdate",
        "compositionend",
    ] {
        // Seen on the way down to the hidden input (capture).
        let _ = document.add_event_listener_with_callback_and_bool(
            kind,
            on_event.unchecked_ref(),
            true,
        );
    }
}

/// Gives egui each Enter, pressed and released, as a desktop's keyboard
/// would.
#[cfg(target_arch = "wasm32")]
fn pass_on_enter(
    contexts: Query<Entity, With<bevy_egui::PrimaryEguiContext>>,
    mut input: MessageWriter<bevy_egui::input::EguiInputEvent>,
) {
    let enters = ENTERS.swap(0, std::sync::atomic::Ordering::Relaxed);
    let Ok(context) = contexts.single() else {
        return;
    };
    for _ in 0..enters {
        for pressed in [true, false] {
            input.write(bevy_egui::input::EguiInputEvent {
                context,
                event: bevy_egui::egui::Event::Key {
                    key: bevy_egui::egui::Key::Enter,
                    physical_key: None,
                    pressed,
                    repeat: false,
                    modifiers: bevy_egui::egui::Modifiers::NONE,
                },
            });
        }
    }
}

/// Whether the page runs on a phone or tablet, as bevy_egui tells (it
/// installs the agent's typing listeners only then).
#[cfg(target_arch = "wasm32")]
fn phone() -> bool {
    const MOBILE: [&str; 6] = ["Android", "iPhone", "iPad", "iPod", "webOS", "BlackBerry"];
    web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .is_some_and(|agent| MOBILE.iter().any(|m| agent.contains(m)))
}

/// Focuses the agent when a text field takes the keyboard, blurs it when
/// the field lets go; only on a change, so the page's focus is left alone
/// the rest of the time.
#[cfg(target_arch = "wasm32")]
fn follow_egui(contexts: Query<&bevy_egui::EguiOutput>, mut editing_before: Local<bool>) {
    // egui asks for the IME while a text field has the keyboard. (Not
    // "while the window is focused": the agent's focus takes it from the
    // canvas, which would blur the agent again the frame after.)
    let editing = contexts
        .iter()
        .any(|output| output.platform_output.ime.is_some());
    if editing != *editing_before {
        *editing_before = editing;
        bevy_egui::text_agent::update_text_agent(editing);
    }
}
