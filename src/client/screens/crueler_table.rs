//! The Crueler World table, drawn from the seat's view only: the seats
//! round a wooden table with their life boxes, the die and N in the middle,
//! your predator cards along the bottom, and the duel when you are in one.

use std::f32::consts::TAU;

use bevy::prelude::*;
use bevy_egui::egui::{
    self, Align2, Color32, CornerRadius, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2,
};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::AnyAction;
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::crueler::{
    self, Beast, CruelerAction, CruelerPhase, CruelerView, Outcome, numbers,
};
use foodweb_rules::table::SeatId;
use foodweb_rules::{Bilingual, Lang};

use crate::client::net::{SeatSide, Session, Target, send};
use crate::client::screens::HostedAt;
use crate::client::{I18n, Screen, UserSettings, theme, widgets};

/// What the player is choosing at the table.
#[derive(Resource, Default)]
pub struct CruelerUi {
    /// A predator card picked (to prey with, or to give away).
    pub(crate) card: Option<SeatId>,
    pub(crate) offer: LifeDraft,
    show_rules: bool,
    /// On a phone: the table, or the results, log and notes.
    tab: widgets::TableTab,
    error: Option<Bilingual>,
    seen_rejections: u64,
}

#[derive(Default)]
pub(crate) struct LifeDraft {
    pub(crate) open: bool,
    pub(crate) to: Option<SeatId>,
    pub(crate) give: u32,
    pub(crate) want: u32,
}

fn t(lang: Lang, en: &str, zh: &str) -> String {
    match lang {
        Lang::Zh => zh.to_string(),
        _ => en.to_string(),
    }
}

fn name(view: &CruelerView, seat: SeatId) -> String {
    view.names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| format!("{seat}"))
}

const WOOD: Color32 = Color32::from_rgb(112, 74, 44);
const WOOD_DARK: Color32 = Color32::from_rgb(80, 52, 30);
const FELT: Color32 = Color32::from_rgb(36, 70, 48);
const CARD_RED: Color32 = Color32::from_rgb(150, 40, 40);

fn beast_colour(b: Beast) -> Color32 {
    match b {
        Beast::Elephant => Color32::from_rgb(130, 140, 160),
        Beast::Tiger => Color32::from_rgb(230, 150, 50),
        Beast::Rat => Color32::from_rgb(150, 120, 100),
    }
}

fn phase_text(view: &CruelerView, lang: Lang) -> String {
    match view.phase {
        CruelerPhase::Idle => t(lang, "Waiting", "等待开始"),
        CruelerPhase::Interlude => t(
            lang,
            "Between phases: give or trade life, then get ready",
            "阶段之间：可赠送或交换生命，然后准备",
        ),
        CruelerPhase::Predation if view.second_ask => t(
            lang,
            "Asked once more: prey, or starve unless preyed upon",
            "再次询问：捕食，或（未被捕食者）挨饿",
        ),
        CruelerPhase::Predation => t(lang, "Predation: asking in turn", "捕食阶段：依次询问"),
        CruelerPhase::Duel => t(lang, "A duel", "决斗中"),
        CruelerPhase::GameOver => t(lang, "Game over", "游戏结束"),
    }
}

/// A predator card: dark red, a claw mark, the engraved number and name.
fn predator_card(
    ui: &mut egui::Ui,
    view: &CruelerView,
    card: SeatId,
    selected: bool,
    enabled: bool,
    lang: Lang,
) -> egui::Response {
    let size = Vec2::new(74.0, 104.0);
    let sense = if enabled {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let painter = ui.painter_at(rect.expand(4.0));
    let lift = if enabled && response.hovered() {
        -4.0
    } else {
        0.0
    };
    let rect = rect.translate(Vec2::new(0.0, lift));
    let fill = if enabled {
        CARD_RED
    } else {
        Color32::from_rgb(104, 58, 54)
    };
    painter.rect_filled(
        rect,
        CornerRadius::same(8),
        Color32::from_rgb(236, 226, 200),
    );
    painter.rect_filled(rect.shrink(4.0), CornerRadius::same(6), fill);
    // Three claw marks.
    for k in 0..3 {
        let x = rect.left() + 18.0 + 9.0 * k as f32;
        painter.line_segment(
            [
                Pos2::new(x, rect.top() + 12.0),
                Pos2::new(x + 10.0, rect.top() + 30.0),
            ],
            Stroke::new(2.5, Color32::from_rgb(240, 200, 180).gamma_multiply(0.7)),
        );
    }
    painter.text(
        rect.center() + Vec2::new(0.0, 6.0),
        Align2::CENTER_CENTER,
        card.to_string(),
        FontId::proportional(34.0),
        Color32::from_rgb(250, 236, 210),
    );
    let label = name(view, card);
    painter.text(
        rect.center_bottom() + Vec2::new(0.0, -12.0),
        Align2::CENTER_CENTER,
        label,
        FontId::proportional(12.0),
        Color32::from_rgb(250, 236, 210),
    );
    let border = if selected {
        Stroke::new(3.0, theme::ACCENT)
    } else {
        Stroke::new(1.0, Color32::from_gray(30))
    };
    painter.rect_stroke(rect, CornerRadius::same(8), border, StrokeKind::Outside);
    response.on_hover_text(match lang {
        Lang::Zh => format!("捕食卡：{} 号（{}）", card, name(view, card)),
        _ => format!("Predator card: seat {} ({})", card, name(view, card)),
    })
}

/// A beast to choose in a duel, drawn as a round token.
fn beast_button(ui: &mut egui::Ui, beast: Beast, lang: Lang, enabled: bool) -> egui::Response {
    let size = Vec2::new(110.0, 110.0);
    let sense = if enabled {
        Sense::click()
    } else {
        Sense::hover()
    };
    let (rect, response) = ui.allocate_exact_size(size, sense);
    let painter = ui.painter_at(rect.expand(2.0));
    let c = rect.center();
    let hover = enabled && response.hovered();
    let fill = beast_colour(beast).gamma_multiply(if enabled { 1.0 } else { 0.45 });
    painter.circle_filled(c, if hover { 52.0 } else { 49.0 }, fill);
    painter.circle_stroke(c, 49.0, Stroke::new(2.0, Color32::from_gray(240)));
    let n = beast.name();
    painter.text(
        c + Vec2::new(0.0, -8.0),
        Align2::CENTER_CENTER,
        &n.zh,
        FontId::proportional(40.0),
        Color32::BLACK,
    );
    painter.text(
        c + Vec2::new(0.0, 28.0),
        Align2::CENTER_CENTER,
        &n.en,
        FontId::proportional(13.0),
        Color32::BLACK,
    );
    let beats = Beast::ALL
        .into_iter()
        .find(|b| beast.beats(*b))
        .expect("each beast beats one");
    response.on_hover_text(match lang {
        Lang::Zh => format!("{}胜{}", n.zh, beats.name().zh),
        _ => format!("{} beats {}", n.en, beats.name().en),
    })
}

/// Where each seat sits round the table.
fn seat_positions(area: Rect, seats: usize, plate: Vec2) -> Vec<Pos2> {
    let c = area.center();
    // Every plate whole inside the area, however narrow (a phone).
    let rx = (area.width() * 0.40).min(area.width() / 2.0 - plate.x / 2.0 - 4.0);
    let ry = (area.height() * 0.38).min(area.height() / 2.0 - plate.y / 2.0 - 4.0);
    (0..seats)
        .map(|i| {
            let a = -TAU / 4.0 + TAU * i as f32 / seats as f32;
            Pos2::new(c.x + rx * a.cos(), c.y + ry * a.sin())
        })
        .collect()
}

/// The table: seats, boxes, the die and N. Returns a seat clicked.
fn table(
    ui: &mut egui::Ui,
    view: &CruelerView,
    clickable: &[SeatId],
    lang: Lang,
) -> Option<SeatId> {
    let size = ui.available_size().max(Vec2::new(300.0, 300.0));
    let (area, response) = ui.allocate_exact_size(size, Sense::click());
    let painter = ui.painter_at(area);
    let c = area.center();
    // Smaller plates on a phone, where thirteen must share 390 points.
    let smallest = if widgets::narrow(ui.ctx()) {
        100.0
    } else {
        128.0
    };
    let plate_w = (area.width() * 0.11).clamp(smallest, 180.0);
    let plate = Vec2::new(plate_w, 74.0 * plate_w / 128.0);
    let (rx, ry) = (area.width() * 0.30, area.height() * 0.27);
    // The wooden table with its felt.
    painter.add(egui::Shape::ellipse_filled(
        c + Vec2::new(0.0, 6.0),
        Vec2::new(rx + 16.0, ry + 16.0),
        Color32::from_black_alpha(90),
    ));
    painter.add(egui::Shape::ellipse_filled(
        c,
        Vec2::new(rx + 14.0, ry + 14.0),
        WOOD,
    ));
    painter.add(egui::Shape::ellipse_stroke(
        c,
        Vec2::new(rx + 14.0, ry + 14.0),
        Stroke::new(3.0, WOOD_DARK),
    ));
    painter.add(egui::Shape::ellipse_filled(c, Vec2::new(rx, ry), FELT));
    // The die and N in the middle.
    if let Some(die) = view.die {
        let d = Rect::from_center_size(c + Vec2::new(-46.0, 0.0), Vec2::splat(58.0));
        painter.rect_filled(d, CornerRadius::same(10), Color32::from_rgb(240, 236, 226));
        painter.rect_stroke(
            d,
            CornerRadius::same(10),
            Stroke::new(2.0, Color32::from_gray(60)),
            StrokeKind::Inside,
        );
        painter.text(
            d.center(),
            Align2::CENTER_CENTER,
            die.to_string(),
            FontId::proportional(30.0),
            Color32::from_rgb(150, 30, 30),
        );
        painter.text(
            d.center_bottom() + Vec2::new(0.0, 12.0),
            Align2::CENTER_CENTER,
            t(lang, "13-sided die", "十三面骰"),
            FontId::proportional(11.0),
            Color32::from_gray(220),
        );
    }
    let nb = c + Vec2::new(46.0, 0.0);
    painter.circle_filled(nb, 30.0, theme::ACCENT);
    painter.text(
        nb + Vec2::new(0.0, -4.0),
        Align2::CENTER_CENTER,
        format!("N={}", view.n),
        FontId::proportional(20.0),
        Color32::BLACK,
    );
    painter.text(
        nb + Vec2::new(0.0, 16.0),
        Align2::CENTER_CENTER,
        t(lang, "at stake", "本阶段"),
        FontId::proportional(10.0),
        Color32::BLACK,
    );
    if view.dueling {
        painter.text(
            c + Vec2::new(0.0, -ry * 0.62),
            Align2::CENTER_CENTER,
            t(lang, "— a duel is under way —", "— 决斗进行中 —"),
            FontId::proportional(15.0),
            theme::BAD,
        );
    }
    // Seats.
    let positions = seat_positions(area, view.alive.len(), plate);
    let pointer = response.hover_pos();
    let mut clicked = None;
    let duelists: Vec<SeatId> = view
        .duel
        .as_ref()
        .map(|d| vec![d.predator, d.prey])
        .unwrap_or_default();
    for (i, &p) in positions.iter().enumerate() {
        let seat = SeatId(i as u8);
        let me = view.me == Some(seat);
        let alive = view.alive[i];
        let w = plate.x;
        let k = w / 128.0;
        let rect = Rect::from_center_size(p, plate);
        let fill = if !alive {
            Color32::from_gray(60)
        } else if me {
            Color32::from_rgb(70, 60, 40)
        } else {
            Color32::from_rgb(44, 52, 46)
        };
        painter.rect_filled(rect, CornerRadius::same(10), fill);
        let can_click = clickable.contains(&seat);
        let hovered = can_click && pointer.is_some_and(|q| rect.contains(q));
        let stroke = if view.asked == Some(seat) {
            Stroke::new(3.0, theme::ACCENT)
        } else if duelists.contains(&seat) {
            Stroke::new(3.0, theme::BAD)
        } else if can_click {
            Stroke::new(
                if hovered { 3.5 } else { 2.0 },
                Color32::from_rgb(240, 120, 90),
            )
        } else {
            Stroke::new(1.0, Color32::from_gray(100))
        };
        painter.rect_stroke(rect, CornerRadius::same(10), stroke, StrokeKind::Inside);
        // Number and name.
        painter.circle_filled(
            rect.left_top() + Vec2::new(16.0, 16.0) * k,
            12.0 * k,
            if alive {
                theme::ACCENT
            } else {
                Color32::from_gray(120)
            },
        );
        painter.text(
            rect.left_top() + Vec2::new(16.0, 16.0) * k,
            Align2::CENTER_CENTER,
            seat.to_string(),
            FontId::proportional(14.0 * k),
            Color32::BLACK,
        );
        painter.text(
            rect.left_top() + Vec2::new(34.0, 16.0) * k,
            Align2::LEFT_CENTER,
            name(view, seat),
            FontId::proportional(14.0 * k),
            if alive {
                theme::TEXT
            } else {
                Color32::from_gray(170)
            },
        );
        // The life box: closed unless it is yours (or the game is over).
        let bx = Rect::from_min_size(
            rect.left_top() + Vec2::new(8.0, 34.0) * k,
            Vec2::new(46.0, 30.0) * k,
        );
        if alive {
            painter.rect_filled(bx, CornerRadius::same(3), WOOD);
            painter.rect_stroke(
                bx,
                CornerRadius::same(3),
                Stroke::new(1.5, WOOD_DARK),
                StrokeKind::Inside,
            );
            // Your own box shows your life; at the end every box is opened.
            let label = match (&view.result, me, view.my_life) {
                (Some(r), _, _) => r.scores[i].to_string(),
                (None, true, Some(l)) => l.to_string(),
                _ if matches!(view.phase, CruelerPhase::Predation | CruelerPhase::Duel) => {
                    "?".into()
                }
                _ => "■".into(),
            };
            painter.text(
                bx.center(),
                Align2::CENTER_CENTER,
                label,
                FontId::proportional(16.0 * k),
                Color32::from_rgb(250, 236, 210),
            );
        } else {
            painter.text(
                bx.center(),
                Align2::CENTER_CENTER,
                t(lang, "out", "出局"),
                FontId::proportional(14.0 * k),
                Color32::from_gray(200),
            );
        }
        // Marks: reserve, cards left, asked, preying.
        let mut marks = Vec::new();
        if view.reserve[i] {
            marks.push(t(lang, "🌿 reserve", "🌿 保护区"));
        }
        // Card counts are secret (rules.md §3): only your own is shown.
        if me {
            marks.push(match lang {
                Lang::Zh => format!("{} 张卡", view.my_cards.len()),
                _ => format!("{} cards", view.my_cards.len()),
            });
        }
        painter.text(
            rect.left_top() + Vec2::new(62.0, 40.0) * k,
            Align2::LEFT_CENTER,
            marks.join("\n"),
            FontId::proportional(11.0 * k),
            theme::MUTED,
        );
        if hovered {
            egui::Tooltip::always_open(
                ui.ctx().clone(),
                ui.layer_id(),
                egui::Id::new("prey-tip"),
                egui::PopupAnchor::Pointer,
            )
            .show(|ui| {
                ui.label(match lang {
                    Lang::Zh => format!("捕食{}", name(view, seat)),
                    _ => format!("Prey on {}", name(view, seat)),
                });
            });
        }
        if response.clicked()
            && can_click
            && response
                .interact_pointer_pos()
                .is_some_and(|q| rect.contains(q))
        {
            clicked = Some(seat);
        }
    }
    clicked
}

fn duel_panel(ui: &mut egui::Ui, view: &CruelerView, lang: Lang) -> Option<CruelerAction> {
    let d = view.duel.as_ref()?;
    let me = view.me?;
    let mut action = None;
    let (mine, theirs) = if d.predator == me { (0, 1) } else { (1, 0) };
    let opponent = if d.predator == me { d.prey } else { d.predator };
    ui.horizontal(|ui| {
        ui.label(
            egui::RichText::new(match lang {
                Lang::Zh => format!(
                    "对{}的决斗：{} - {}（先赢 2 回合者胜）",
                    name(view, opponent),
                    d.wins[mine],
                    d.wins[theirs]
                ),
                _ => format!(
                    "Duel with {}: {} - {} (first to win 2 throws)",
                    name(view, opponent),
                    d.wins[mine],
                    d.wins[theirs]
                ),
            })
            .strong()
            .size(18.0),
        );
    });
    ui.horizontal(|ui| {
        for &(a, b) in &d.throws {
            let (x, y) = if mine == 0 { (a, b) } else { (b, a) };
            ui.label(
                egui::RichText::new(format!("{}:{}", x.name().get(lang), y.name().get(lang)))
                    .color(if x.beats(y) {
                        theme::GOOD
                    } else if y.beats(x) {
                        theme::BAD
                    } else {
                        theme::MUTED
                    }),
            );
        }
    });
    if d.chosen {
        ui.label(t(
            lang,
            "Chosen. Waiting for your opponent…",
            "已选择，等待对手……",
        ));
    } else {
        ui.label(t(
            lang,
            "Choose your beast (in secret):",
            "秘密选择你的野兽：",
        ));
        ui.horizontal(|ui| {
            for b in Beast::ALL {
                if beast_button(ui, b, lang, true).clicked() {
                    action = Some(CruelerAction::Choose { beast: b });
                }
            }
        });
    }
    action
}

fn controls(
    ui: &mut egui::Ui,
    view: &CruelerView,
    state: &mut CruelerUi,
    lang: Lang,
) -> Option<CruelerAction> {
    let me = view.me?;
    let alive = view.alive[me.index()];
    let mut action = None;
    if !alive && view.phase != CruelerPhase::GameOver {
        ui.label(t(
            lang,
            "You are out. You may give a predator card to a living player: pick a card, then click their seat.",
            "你已出局。可以把捕食卡送给存活的玩家：先选一张卡，再点击对方的座位。",
        ));
        return None;
    }
    match view.phase {
        CruelerPhase::Interlude => {
            ui.horizontal_wrapped(|ui| {
                if !view.ready {
                    if ui
                        .add(egui::Button::new(
                            egui::RichText::new(t(
                                lang,
                                "Ready for the predation phase",
                                "准备进入捕食阶段",
                            ))
                            .size(18.0),
                        ))
                        .clicked()
                    {
                        action = Some(CruelerAction::Ready);
                    }
                } else {
                    ui.label(t(
                        lang,
                        "You are ready. Waiting for the others…",
                        "你已准备，等待其他玩家……",
                    ));
                }
                if ui
                    .button(t(lang, "Give or trade life…", "赠送或交换生命……"))
                    .clicked()
                {
                    state.offer.open = true;
                }
            });
            for o in &view.offers {
                ui.horizontal_wrapped(|ui| {
                    if o.to == me {
                        ui.label(
                            egui::RichText::new(match lang {
                                Lang::Zh => format!(
                                    "{}提出：给你 {} 点，换你 {} 点",
                                    name(view, o.from),
                                    o.give,
                                    o.want
                                ),
                                _ => format!(
                                    "{} offers {} life for {} of yours",
                                    name(view, o.from),
                                    o.give,
                                    o.want
                                ),
                            })
                            .color(theme::ACCENT),
                        );
                        if ui.button(t(lang, "Accept", "接受")).clicked() {
                            action = Some(CruelerAction::Accept { from: o.from });
                        }
                        if ui.button(t(lang, "Decline", "拒绝")).clicked() {
                            action = Some(CruelerAction::Decline { from: o.from });
                        }
                    } else {
                        ui.label(match lang {
                            Lang::Zh => format!(
                                "你向{}提出：给 {} 点，换 {} 点",
                                name(view, o.to),
                                o.give,
                                o.want
                            ),
                            _ => format!(
                                "Your offer to {}: {} for {}",
                                name(view, o.to),
                                o.give,
                                o.want
                            ),
                        });
                        if ui.button(t(lang, "Withdraw", "撤回")).clicked() {
                            action = Some(CruelerAction::Withdraw { to: o.to });
                        }
                    }
                });
            }
        }
        CruelerPhase::Predation if view.to_act => {
            let text = if view.second_ask && !view.preyed_upon {
                match lang {
                    Lang::Zh => format!(
                        "再次询问：捕食吗？拒绝将挨饿（-{}）。点击一张捕食卡或对方座位。",
                        view.n
                    ),
                    _ => format!(
                        "Asked once more: will you prey? Refusing starves you (-{}). Click a predator card or a seat.",
                        view.n
                    ),
                }
            } else if view.second_ask {
                t(
                    lang,
                    "Asked once more. You were preyed upon, so refusing costs nothing.",
                    "再次询问。你已被捕食过，拒绝不会挨饿。",
                )
            } else {
                t(
                    lang,
                    "Your turn: prey (click a predator card or a lit seat) or pass.",
                    "轮到你：捕食（点击捕食卡或高亮的座位）或不捕食。",
                )
            };
            ui.label(egui::RichText::new(text).strong().color(theme::ACCENT));
            if view.targets.is_empty() {
                ui.label(t(
                    lang,
                    "You hold no card for anyone you may prey on.",
                    "你没有可用的捕食卡。",
                ));
            }
            let pass = if view.second_ask && !view.preyed_upon {
                match lang {
                    Lang::Zh => format!("不捕食（挨饿 -{}）", view.n),
                    _ => format!("Pass (starve -{})", view.n),
                }
            } else {
                t(lang, "Pass", "不捕食")
            };
            if ui
                .add(egui::Button::new(egui::RichText::new(pass).size(17.0)))
                .clicked()
            {
                action = Some(CruelerAction::Pass);
            }
        }
        CruelerPhase::Predation => {
            ui.label(t(
                lang,
                "The referee is asking the players in turn, one by one in private…",
                "裁判正在依次私下询问各位玩家……",
            ));
        }
        CruelerPhase::Duel => {
            if view.duel.is_some() {
                action = duel_panel(ui, view, lang);
            } else {
                ui.label(t(lang, "Two players are dueling…", "两名玩家正在决斗……"));
            }
        }
        CruelerPhase::GameOver | CruelerPhase::Idle => {}
    }
    action
}

fn offer_window(
    ctx: &egui::Context,
    view: &CruelerView,
    state: &mut CruelerUi,
    lang: Lang,
) -> Option<CruelerAction> {
    if !state.offer.open || view.phase != CruelerPhase::Interlude {
        state.offer.open = false;
        return None;
    }
    let me = view.me?;
    let mut action = None;
    let mut open = true;
    egui::Window::new(t(lang, "Give or trade life", "赠送或交换生命"))
        .open(&mut open)
        .collapsible(false)
        .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(t(
                lang,
                "The trade happens only if they accept.",
                "对方接受后才会交换。",
            ));
            ui.horizontal_wrapped(|ui| {
                for i in 0..view.alive.len() {
                    let s = SeatId(i as u8);
                    if s == me || !view.alive[i] {
                        continue;
                    }
                    if ui
                        .selectable_label(
                            state.offer.to == Some(s),
                            format!("{} {}", s, name(view, s)),
                        )
                        .clicked()
                    {
                        state.offer.to = Some(s);
                    }
                }
            });
            let max = view.my_life.unwrap_or(1).max(1) as u32 - 1;
            ui.add(egui::Slider::new(&mut state.offer.give, 0..=max).text(t(
                lang,
                "you give",
                "你给出",
            )));
            ui.add(egui::Slider::new(&mut state.offer.want, 0..=20).text(t(
                lang,
                "you ask for",
                "你索要",
            )));
            let can = state.offer.to.is_some() && (state.offer.give > 0 || state.offer.want > 0);
            if ui
                .add_enabled(can, egui::Button::new(t(lang, "Send offer", "发出提议")))
                .clicked()
            {
                action = Some(CruelerAction::OfferLife {
                    to: state.offer.to?,
                    give: state.offer.give,
                    want: state.offer.want,
                });
                state.offer.open = false;
            }
            Some(())
        });
    if !open {
        state.offer.open = false;
    }
    action
}

fn history_line(view: &CruelerView, o: &Outcome, lang: Lang) -> String {
    match o {
        Outcome::Duel {
            round,
            n,
            predator,
            prey,
            winner,
        } => match lang {
            Lang::Zh => format!(
                "第{round}轮 N={n}：{}捕食{}，{}胜",
                name(view, *predator),
                name(view, *prey),
                name(view, *winner)
            ),
            _ => format!(
                "R{round} N={n}: {} preyed on {}, {} won",
                name(view, *predator),
                name(view, *prey),
                name(view, *winner)
            ),
        },
        Outcome::Elimination { round, n } => match lang {
            Lang::Zh => format!("第{round}轮 N={n}：一场决斗以淘汰告终"),
            _ => format!("R{round} N={n}: a duel ended in an elimination"),
        },
        Outcome::Starved { round, n, seat } => match lang {
            Lang::Zh => format!("第{round}轮：{}挨饿 -{n}", name(view, *seat)),
            _ => format!("R{round}: {} starved -{n}", name(view, *seat)),
        },
        Outcome::StarvedOut { round, seat, .. } => match lang {
            Lang::Zh => format!("第{round}轮：{}饿死出局", name(view, *seat)),
            _ => format!("R{round}: {} starved and is out", name(view, *seat)),
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
    i18n: Res<I18n>,
    mut settings: ResMut<UserSettings>,
    mut state: ResMut<CruelerUi>,
    mut next: ResMut<NextState<Screen>>,
    session: Res<Session>,
    hosted: Res<HostedAt>,
    time: Res<Time>,
    mut received: Local<(u64, f64)>,
) -> Result {
    let on_lan = !hosted.0.is_empty() || session.target != Some(Target::InProcess);
    let Some(view) = model.crueler_view().cloned() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    // The clock counts down from the table time the view was made at.
    let now = time.elapsed_secs_f64();
    if received.0 != model.revision {
        *received = (model.revision, now);
    }
    let left_ms = view.my_deadline_ms.map(|d| {
        let since = ((now - received.1) * 1000.0) as u64;
        d.saturating_sub(view.now_ms + since)
    });
    if state.seen_rejections != model.rejected {
        state.seen_rejections = model.rejected;
        state.error = model.last_rejection.clone();
    }
    let lang = i18n.lang;
    let mut screen = widgets::screen(ctx);
    let mut leave = false;
    let mut action = None;
    egui::Panel::top("crueler-top").show(&mut screen, |ui| {
        let pressed = widgets::table_top_bar(ui, &i18n, &mut state.tab, |ui| {
            let rounds = numbers().rounds.len();
            let phases = numbers().phases_in(view.round);
            ui.label(
                egui::RichText::new(match lang {
                    Lang::Zh => format!(
                        "第 {} / {rounds} 轮 · 第 {} / {phases} 次捕食",
                        view.round, view.phase_no
                    ),
                    _ => format!(
                        "Round {} of {rounds} · predation {} of {phases}",
                        view.round, view.phase_no
                    ),
                })
                .strong()
                .size(18.0),
            );
            ui.separator();
            ui.label(
                egui::RichText::new(format!("N = {}", view.n))
                    .strong()
                    .size(20.0)
                    .color(theme::ACCENT),
            );
            ui.separator();
            ui.label(egui::RichText::new(phase_text(&view, lang)).color(theme::ACCENT));
            if let Some(left) = left_ms {
                let colour = if left < 15_000 {
                    theme::BAD
                } else {
                    theme::TEXT
                };
                ui.label(
                    egui::RichText::new(format!("⏱ {}", widgets::clock_text(left))).color(colour),
                );
            }
            if numbers().reserve(view.round) {
                ui.label(
                    egui::RichText::new(t(lang, "🌿 Nature Reserve on", "🌿 自然保护区生效"))
                        .color(theme::GOOD),
                );
            }
        });
        leave |= pressed.leave;
        if pressed.rules {
            state.show_rules = !state.show_rules;
        }
        if let Some(l) = pressed.lang {
            settings.lang = l;
        }
    });
    let table_shown = widgets::side_panel(&mut screen, "crueler-side", state.tab, |ui| {
        ui.label(egui::RichText::new(t(lang, "Results so far", "战况")).strong());
        egui::ScrollArea::vertical()
            .id_salt("crueler-history")
            .max_height(ui.available_height() * 0.3)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for o in &view.history {
                    ui.label(egui::RichText::new(history_line(&view, o, lang)).small());
                }
            });
        ui.separator();
        widgets::log_and_notes(ui, &i18n, &model, 0.55, 0.0);
    });
    let me = view.me;
    let alive = me.is_some_and(|s| view.alive[s.index()]);
    if table_shown {
        widgets::table_bottom(
            &mut screen,
            "crueler-bottom",
            190.0,
            220.0,
            |ui| {
                if let Some(life) = view.my_life {
                    ui.label(
                        egui::RichText::new(match lang {
                            Lang::Zh => format!("你的生命：{life}"),
                            _ => format!("Your life: {life}"),
                        })
                        .size(20.0)
                        .strong(),
                    );
                }
                if matches!(view.phase, CruelerPhase::Predation | CruelerPhase::Duel) && alive {
                    ui.label(
                        egui::RichText::new(t(
                            lang,
                            "Your box is with the referee.",
                            "你的木盒在裁判处。",
                        ))
                        .color(theme::MUTED),
                    );
                }
                if !view.my_tokens.is_empty() {
                    ui.label(t(lang, "In your box:", "木盒里："));
                    for (from, n) in &view.my_tokens {
                        let who = match from {
                            Some(s) if Some(*s) == me => t(lang, "yours", "你自己的"),
                            Some(s) => name(&view, *s),
                            None => t(lang, "the bank", "银行"),
                        };
                        ui.label(egui::RichText::new(format!("{n} × {who}")).small());
                    }
                }
            },
            |ui| {
                ui.label(
                    egui::RichText::new(t(lang, "Your predator cards", "你的捕食卡")).strong(),
                );
                egui::ScrollArea::horizontal()
                    .id_salt("cards")
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            for &card in &view.my_cards {
                                let preyable = view.targets.contains(&card);
                                let giving = !alive
                                    && view.phase != CruelerPhase::GameOver
                                    && view.phase != CruelerPhase::Duel;
                                let r = predator_card(
                                    ui,
                                    &view,
                                    card,
                                    state.card == Some(card),
                                    preyable || giving,
                                    lang,
                                );
                                if r.clicked() {
                                    if preyable {
                                        action = Some(CruelerAction::Prey { target: card });
                                    } else if giving {
                                        state.card = Some(card);
                                    }
                                }
                            }
                            if view.my_cards.is_empty() {
                                ui.label(
                                    egui::RichText::new(t(lang, "none left", "已用完"))
                                        .color(theme::MUTED),
                                );
                            }
                        });
                    });
                if let Some(a) = controls(ui, &view, &mut state, lang) {
                    action = Some(a);
                }
                if let Some(e) = &state.error {
                    ui.label(egui::RichText::new(i18n.pick(e)).color(theme::BAD));
                }
            },
        );
    }
    if table_shown {
        egui::CentralPanel::default().show(&mut screen, |ui| {
            let mut clickable = view.targets.clone();
            let giving = !alive && state.card.is_some();
            if giving {
                clickable = (0..view.alive.len())
                    .map(|i| SeatId(i as u8))
                    .filter(|s| view.alive[s.index()])
                    .collect();
            }
            if let Some(seat) = table(ui, &view, &clickable, lang) {
                if giving {
                    action = Some(CruelerAction::GiveCard {
                        to: seat,
                        card: state.card.take().expect("picked"),
                    });
                } else {
                    action = Some(CruelerAction::Prey { target: seat });
                }
            }
        });
    }
    if let Some(a) = offer_window(ctx, &view, &mut state, lang) {
        action = Some(a);
    }
    if state.show_rules {
        let mut open = true;
        egui::Window::new(i18n.t("table-rules"))
            .open(&mut open)
            .default_size([720.0, 560.0])
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    widgets::rules_text(ui, crueler::RULES_MD);
                });
            });
        state.show_rules = open;
    }
    if let Some(result) = &view.result {
        egui::Window::new(i18n.t("table-game-over"))
            .collapsible(false)
            .anchor(Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                let mut order: Vec<usize> = (0..result.places.len()).collect();
                order.sort_by_key(|&i| (result.places[i], i));
                egui::Grid::new("crueler-ranking")
                    .striped(true)
                    .show(ui, |ui| {
                        ui.label(t(lang, "Place", "名次"));
                        ui.label(t(lang, "Player", "玩家"));
                        ui.label(t(lang, "Life", "生命"));
                        ui.end_row();
                        for i in order {
                            let place = result.places[i];
                            let mut who = egui::RichText::new(name(&view, SeatId(i as u8)));
                            if place == 1 {
                                who = who.color(theme::ACCENT).strong().size(19.0);
                            }
                            ui.label(i18n.ta("table-place", &[("n", place.into())]));
                            ui.label(who);
                            ui.label(if view.alive[i] {
                                result.scores[i].to_string()
                            } else {
                                t(lang, "out", "出局")
                            });
                            ui.end_row();
                        }
                    });
                ui.horizontal(|ui| {
                    if ui.button(i18n.t("table-new-game")).clicked() {
                        next.set(if on_lan { Screen::Lobby } else { Screen::Setup });
                    }
                    if ui.button(i18n.t("table-back-to-title")).clicked() {
                        next.set(Screen::Title);
                    }
                });
            });
    }
    if let Some(action) = action {
        send(
            &mut outbox,
            ClientMsg::Act {
                action: AnyAction::Crueler(action),
            },
        );
        state.error = None;
    }
    if leave {
        next.set(if on_lan { Screen::Lobby } else { Screen::Title });
    }
    Ok(())
}

fn reset(mut commands: Commands) {
    commands.insert_resource(CruelerUi::default());
}

pub fn plugin(app: &mut App) {
    app.init_resource::<CruelerUi>()
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Table)))
        .add_systems(OnExit(Screen::Table), reset);
}
