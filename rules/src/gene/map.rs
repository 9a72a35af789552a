//! The Gene Survival map, read from `data/map.ron`: wings, floors, rooms,
//! and the links between rooms with what each step costs. The seed gives
//! no map; this one is the rules document's design, and a host can swap
//! the file.
//!
//! Seed: "相邻的房间需消耗一步，不同楼层需要通过楼梯上下，不同楼栋，需要通过
//! 廊桥或搭乘直升机前往" (adjacent rooms cost a step; floors change by the
//! stairs; wings by the bridge or the helicopter), and shadows "可不需楼梯上
//! 下楼" (change floors without the stairs).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::text::Bilingual;

/// A room, by its place in the map's list. Written (in saves, scenarios
/// and on the wire) as the room's key, e.g. `"e3-surgery"`, so a file reads
/// like the map and names no room that does not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoomId(pub u8);

/// A floor of a wing: what gas votes name. Written as the wing's key and
/// the floor's number, e.g. `"east2"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FloorId {
    pub building: u8,
    pub floor: u8,
}

impl Serialize for RoomId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match map().rooms.get(self.0 as usize) {
            Some(room) => s.serialize_str(&room.key),
            None => Err(serde::ser::Error::custom(format!("no room {}", self.0))),
        }
    }
}

impl<'de> Deserialize<'de> for RoomId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        map()
            .by_key(&key)
            .ok_or_else(|| serde::de::Error::custom(format!("the map has no room '{key}'")))
    }
}

impl FloorId {
    /// The floor's key: wing key and floor number (`"east2"`).
    pub fn key(&self) -> String {
        let wing = map()
            .building_keys
            .get(self.building as usize)
            .map_or("?", String::as_str);
        format!("{wing}{}", self.floor)
    }

    pub fn from_key(key: &str) -> Option<Self> {
        let digits = key.trim_start_matches(|c: char| !c.is_ascii_digit());
        let wing = &key[..key.len() - digits.len()];
        let floor: u8 = digits.parse().ok()?;
        let building = map().building_keys.iter().position(|k| k == wing)? as u8;
        let id = FloorId { building, floor };
        map().floor_ids().contains(&id).then_some(id)
    }
}

impl Serialize for FloorId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.key())
    }
}

impl<'de> Deserialize<'de> for FloorId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let key = String::deserialize(d)?;
        FloorId::from_key(&key)
            .ok_or_else(|| serde::de::Error::custom(format!("the map has no floor '{key}'")))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ItemKind {
    Water,
    Food,
    Gold,
    Medicine,
    Alcohol,
    Adrenaline,
    Rocket,
}

impl ItemKind {
    /// Every kind of card, in the order the rules list them.
    pub const ALL: [ItemKind; 7] = [
        ItemKind::Water,
        ItemKind::Food,
        ItemKind::Gold,
        ItemKind::Medicine,
        ItemKind::Alcohol,
        ItemKind::Adrenaline,
        ItemKind::Rocket,
    ];
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoomFunction {
    /// 手术室: surgery moves gene points (rules document).
    Surgery,
    /// 停尸间: shadows start here; a new shadow's cards are left here.
    Morgue,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkKind {
    Corridor,
    Stairs,
    Bridge,
    Helicopter,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BuildingData {
    key: String,
    name: Bilingual,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoomData {
    key: String,
    name: Bilingual,
    building: String,
    floor: u8,
    x: u8,
    draws: Vec<ItemKind>,
    function: Option<RoomFunction>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkData {
    a: String,
    b: String,
    kind: LinkKind,
}

/// Steps each kind of move costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    pub corridor: u32,
    pub stairs: u32,
    pub bridge: u32,
    pub helicopter: u32,
    /// A shadow passing straight up or down one floor.
    pub shadow_vertical: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MapData {
    buildings: Vec<BuildingData>,
    costs: Costs,
    rooms: Vec<RoomData>,
    links: Vec<LinkData>,
}

#[derive(Clone, Debug)]
pub struct Room {
    pub key: String,
    pub name: Bilingual,
    pub floor: FloorId,
    pub x: u8,
    pub draws: Vec<ItemKind>,
    pub function: Option<RoomFunction>,
}

#[derive(Clone, Debug)]
pub struct Map {
    pub buildings: Vec<Bilingual>,
    pub building_keys: Vec<String>,
    pub rooms: Vec<Room>,
    pub costs: Costs,
    /// Neighbours of each room with the steps it costs to go there.
    living: Vec<Vec<(RoomId, u32)>>,
    shadow: Vec<Vec<(RoomId, u32)>>,
    /// The fewest steps from each room to each room, for the living and
    /// for shadows (`u32::MAX`: no way), worked out once when the map is
    /// read: every seat's view and every move asks where a player can go.
    steps_living: Vec<Vec<u32>>,
    steps_shadow: Vec<Vec<u32>>,
    /// Every floor, in order (each view says which are open).
    floor_ids: Vec<FloorId>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MapError {
    #[error("map file is not valid RON: {0}")]
    Parse(String),
    #[error("room '{0}' appears twice")]
    DuplicateRoom(String),
    #[error("room '{room}' names an unknown building '{building}'")]
    UnknownBuilding { room: String, building: String },
    #[error("link {a} - {b} names an unknown room")]
    UnknownRoom { a: String, b: String },
    #[error("link {a} - {b}: {why}")]
    BadLink { a: String, b: String, why: String },
    #[error("a step cost of 0 lets a player go anywhere for free")]
    FreeStep,
    #[error("room '{0}' cannot be reached from the rest of the map")]
    Unreachable(String),
    #[error("the map needs exactly one {0:?} room")]
    Function(RoomFunction),
    #[error("no room draws {0:?}")]
    NoSource(ItemKind),
    #[error("more than 255 rooms")]
    TooLarge,
}

impl Map {
    /// Reads and checks a map.
    pub fn from_ron(text: &str) -> Result<Self, MapError> {
        let data: MapData = ron::from_str(text).map_err(|e| MapError::Parse(e.to_string()))?;
        let c = data.costs;
        if [
            c.corridor,
            c.stairs,
            c.bridge,
            c.helicopter,
            c.shadow_vertical,
        ]
        .contains(&0)
        {
            return Err(MapError::FreeStep);
        }
        if data.rooms.len() > 255 {
            return Err(MapError::TooLarge);
        }
        let (rooms, keys) = read_rooms(&data)?;
        let living = read_links(&data, &rooms, &keys)?;
        let shadow = shadow_links(&rooms, &living, c.shadow_vertical);
        let steps_living = fewest_steps(&living);
        let steps_shadow = fewest_steps(&shadow);
        let floor_ids = rooms
            .iter()
            .map(|r| r.floor)
            .collect::<BTreeSet<FloorId>>()
            .into_iter()
            .collect();
        let map = Self {
            building_keys: data.buildings.iter().map(|b| b.key.clone()).collect(),
            buildings: data.buildings.into_iter().map(|b| b.name).collect(),
            rooms,
            costs: c,
            living,
            shadow,
            steps_living,
            steps_shadow,
            floor_ids,
        };
        map.check_whole()?;
        Ok(map)
    }

    /// What the whole map must have: every room reached from the first,
    /// one surgery and one morgue, a room giving each kind of card.
    fn check_whole(&self) -> Result<(), MapError> {
        if !self.rooms.is_empty() {
            let reached = self.reachable(RoomId(0), u32::MAX, false);
            if let Some(r) = self.ids().find(|r| !reached.contains_key(r)) {
                return Err(MapError::Unreachable(self.room(r).key.clone()));
            }
        }
        for f in [RoomFunction::Surgery, RoomFunction::Morgue] {
            if self.rooms.iter().filter(|r| r.function == Some(f)).count() != 1 {
                return Err(MapError::Function(f));
            }
        }
        for kind in ItemKind::ALL {
            if !self.rooms.iter().any(|r| r.draws.contains(&kind)) {
                return Err(MapError::NoSource(kind));
            }
        }
        Ok(())
    }

    /// The morgue (the map is checked to have exactly one).
    pub fn morgue(&self) -> RoomId {
        self.ids()
            .find(|&r| self.room(r).function == Some(RoomFunction::Morgue))
            .expect("a checked map has a morgue")
    }

    /// Rooms a player may choose to spawn in: any but the morgue.
    pub fn spawn_rooms(&self) -> impl Iterator<Item = RoomId> + '_ {
        self.ids().filter(|&r| r != self.morgue())
    }

    pub fn room(&self, id: RoomId) -> &Room {
        &self.rooms[id.0 as usize]
    }

    pub fn by_key(&self, key: &str) -> Option<RoomId> {
        self.rooms
            .iter()
            .position(|r| r.key == key)
            .map(|i| RoomId(i as u8))
    }

    pub fn ids(&self) -> impl Iterator<Item = RoomId> {
        (0..self.rooms.len()).map(|i| RoomId(i as u8))
    }

    /// Every floor of the map, in order: what gas votes choose from.
    pub fn floors(&self) -> Vec<FloorId> {
        self.floor_ids.clone()
    }

    /// Every floor, in order ([`Map::floors`], borrowed).
    pub fn floor_ids(&self) -> &[FloorId] {
        &self.floor_ids
    }

    /// A floor's name as players say it: "East 2F" / "东楼2层", and the
    /// roof for a top floor that is one room: "East roof" / "东楼天台".
    pub fn floor_name(&self, f: FloorId) -> Bilingual {
        let b = &self.buildings[f.building as usize];
        let top = self
            .rooms
            .iter()
            .filter(|r| r.floor.building == f.building)
            .map(|r| r.floor.floor)
            .max()
            .unwrap_or(0);
        let roof = f.floor == top && self.rooms_on(f).count() == 1;
        let wing = b.en.trim_end_matches(" wing");
        if roof {
            Bilingual::new(format!("{wing} roof"), format!("{}天台", b.zh))
        } else {
            Bilingual::new(
                format!("{wing} {}F", f.floor),
                format!("{}{}层", b.zh, f.floor),
            )
        }
    }

    pub fn rooms_on(&self, floor: FloorId) -> impl Iterator<Item = RoomId> + '_ {
        self.ids().filter(move |&r| self.room(r).floor == floor)
    }

    pub fn neighbours(&self, room: RoomId, shadow: bool) -> &[(RoomId, u32)] {
        let lists = if shadow { &self.shadow } else { &self.living };
        &lists[room.0 as usize]
    }

    /// The rooms within `steps` of `from` and the fewest steps to each
    /// (`from` itself at 0): a shortest path over the map's links.
    pub fn reachable(&self, from: RoomId, steps: u32, shadow: bool) -> BTreeMap<RoomId, u32> {
        self.reach(from, steps, shadow).collect()
    }

    /// [`Map::reachable`] in room order, from the table of fewest steps.
    pub fn reach(
        &self,
        from: RoomId,
        steps: u32,
        shadow: bool,
    ) -> impl Iterator<Item = (RoomId, u32)> + '_ {
        let table = if shadow {
            &self.steps_shadow
        } else {
            &self.steps_living
        };
        table[from.0 as usize]
            .iter()
            .enumerate()
            .filter(move |&(_, &d)| d <= steps && d != u32::MAX)
            .map(|(r, &d)| (RoomId(r as u8), d))
    }

    /// The rooms a walk from `from` to `to` passes through, both ends
    /// included, by the fewest steps (for a token's walk on the screen).
    pub fn path(&self, from: RoomId, to: RoomId, shadow: bool) -> Option<Vec<RoomId>> {
        pathfinding::directed::dijkstra::dijkstra(
            &from,
            |&r| self.neighbours(r, shadow).to_vec(),
            |&r| r == to,
        )
        .map(|(path, _)| path)
    }

    /// Where a player may end a move: any other room within its speed.
    /// Seed: "每轮每个玩家必须移动，步数可以不用完" (everyone must move; steps
    /// may be left unused).
    pub fn destinations(&self, from: RoomId, speed: u32, shadow: bool) -> Vec<RoomId> {
        self.reach(from, speed, shadow)
            .filter(|&(r, _)| r != from)
            .map(|(r, _)| r)
            .collect()
    }
}

/// Neighbours of each room with the steps it costs to go there.
type Links = Vec<Vec<(RoomId, u32)>>;

/// The fewest steps from each room to each room over `links` (a shortest
/// path by Dijkstra's order from every room; `u32::MAX` where there is no
/// way).
fn fewest_steps(links: &Links) -> Vec<Vec<u32>> {
    (0..links.len())
        .map(|from| {
            let mut row = vec![u32::MAX; links.len()];
            for item in pathfinding::directed::dijkstra::dijkstra_reach(&RoomId(from as u8), |&r| {
                links[r.0 as usize].clone()
            }) {
                row[item.node.0 as usize] = item.total_cost;
            }
            row
        })
        .collect()
}

/// The rooms in the file's order, and each room's id by its key; a room
/// twice, or in a wing the file does not list, is refused.
fn read_rooms(data: &MapData) -> Result<(Vec<Room>, BTreeMap<String, RoomId>), MapError> {
    let building_index: BTreeMap<&str, u8> = data
        .buildings
        .iter()
        .enumerate()
        .map(|(i, b)| (b.key.as_str(), i as u8))
        .collect();
    let mut keys = BTreeMap::new();
    let mut rooms = Vec::new();
    for (i, r) in data.rooms.iter().enumerate() {
        if keys.insert(r.key.clone(), RoomId(i as u8)).is_some() {
            return Err(MapError::DuplicateRoom(r.key.clone()));
        }
        let building =
            *building_index
                .get(r.building.as_str())
                .ok_or_else(|| MapError::UnknownBuilding {
                    room: r.key.clone(),
                    building: r.building.clone(),
                })?;
        rooms.push(Room {
            key: r.key.clone(),
            name: r.name.clone(),
            floor: FloorId {
                building,
                floor: r.floor,
            },
            x: r.x,
            draws: r.draws.clone(),
            function: r.function,
        });
    }
    Ok((rooms, keys))
}

/// The links between rooms for the living: a corridor on one floor,
/// stairs between neighbouring floors of a wing, a bridge or helicopter
/// between wings, each at its cost.
fn read_links(
    data: &MapData,
    rooms: &[Room],
    keys: &BTreeMap<String, RoomId>,
) -> Result<Links, MapError> {
    let c = data.costs;
    let mut living = vec![Vec::new(); rooms.len()];
    for l in &data.links {
        let bad = |why: &str| MapError::BadLink {
            a: l.a.clone(),
            b: l.b.clone(),
            why: why.into(),
        };
        let (Some(&a), Some(&b)) = (keys.get(&l.a), keys.get(&l.b)) else {
            return Err(MapError::UnknownRoom {
                a: l.a.clone(),
                b: l.b.clone(),
            });
        };
        let (fa, fb) = (rooms[a.0 as usize].floor, rooms[b.0 as usize].floor);
        let cost = match l.kind {
            LinkKind::Corridor if fa != fb => return Err(bad("a corridor stays on one floor")),
            LinkKind::Corridor => c.corridor,
            LinkKind::Stairs if fa.building != fb.building || fa.floor.abs_diff(fb.floor) != 1 => {
                return Err(bad("stairs join neighbouring floors of one wing"));
            }
            LinkKind::Stairs => c.stairs,
            LinkKind::Bridge | LinkKind::Helicopter if fa.building == fb.building => {
                return Err(bad("a bridge or helicopter joins two wings"));
            }
            LinkKind::Bridge => c.bridge,
            LinkKind::Helicopter => c.helicopter,
        };
        if a == b {
            return Err(bad("a room is not its own neighbour"));
        }
        living[a.0 as usize].push((b, cost));
        living[b.0 as usize].push((a, cost));
    }
    sort_links(&mut living);
    Ok(living)
}

/// The links for shadows: the living's, and straight up and down between
/// floors (rooms of a wing at the same place on neighbouring floors).
fn shadow_links(rooms: &[Room], living: &Links, vertical: u32) -> Links {
    // Shadows also pass straight up and down between floors.
    let mut shadow = living.clone();
    for (i, r) in rooms.iter().enumerate() {
        for (j, s) in rooms.iter().enumerate() {
            if r.floor.building == s.floor.building
                && r.x == s.x
                && r.floor.floor.abs_diff(s.floor.floor) == 1
                && !shadow[i].iter().any(|(n, _)| n.0 as usize == j)
            {
                shadow[i].push((RoomId(j as u8), vertical));
            }
        }
    }
    sort_links(&mut shadow);
    shadow
}

/// Each room's neighbours in order, each once (at its cheapest).
fn sort_links(links: &mut Links) {
    for list in links {
        list.sort();
        list.dedup_by_key(|(r, _)| *r);
    }
}

/// The map the game ships with.
pub fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| {
        Map::from_ron(include_str!("data/map.ron")).expect("the shipped map is valid")
    })
}
