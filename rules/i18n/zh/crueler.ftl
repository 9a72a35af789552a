# 残酷世界：裁判说的话（rules/src/crueler/news.rs）。

opening-boxes-filled = 生命木盒已装好。
opening-boxes-hold = 每个生命木盒有 { $life } 点生命。
opening = { $boxes }第 1 轮：捕食阶段之外可以赠送或交换生命；准备好后请示意。
offer-made = { $from }提出：给你 { $give } 点生命，换你 { $want } 点。
offer-lapsed = 你向{ $to }的提议已失效：生命值已变动。
declined = { $by }拒绝了你的提议。
card-given = { $from }把一张捕食卡送给了{ $to }。
predation-opened = 第 { $round } 轮第 { $phase } 次捕食阶段（N = { $n }）。生命木盒交由裁判保管。骰子掷出 { $die }：从{ $first }开始询问。
passed = 你选择不捕食。
starved = { $seat }挨饿：生命 -{ $n }。
starved-out = { $seat }饿死出局。
second-asking = 所有人都已被询问。未捕食的玩家将被再次询问：拒绝且未被捕食者将挨饿。
duel-began = 有人交出捕食卡：决斗开始。
preys-on-you = { $predator }捕食你：决斗！
throw = { $a }对{ $b }：{ $result }（{ $won }-{ $lost }）。
throw-predator = 捕食者赢下这一回合
throw-prey = 猎物赢下这一回合
throw-tie = 平局：重新选择
dice = 掷骰：捕食者 { $a }，猎物 { $b }。
eliminated = 决斗结束：有一名玩家被淘汰。（裁判不公布双方身份。）
duel-won = { $predator }捕食{ $prey }：{ $winner }获胜（+{ $n } / -{ $n }）。
enters-reserve = { $loser }本轮进入自然保护区。
phase-over = 本次捕食阶段结束，生命木盒归还。
round-begins = 第 { $round } 轮开始。
round-begins-no-reserve = 第 { $round } 轮开始：自然保护区消失。
box-life = { $seat } { $life }
box-out = { $seat } 出局
game-over = 游戏结束。开盒：{ $boxes }
interlude-time-up = 间歇时间到：未答复的提议失效。
offer-time-up = 时间到：你们之间的生命提议已失效。
ask-time-up = 时间到：视为不捕食。
beast-drawn = 时间到：裁判为你抽出{ $beast }。
beast-elephant = 象
beast-tiger = 虎
beast-rat = 鼠

## Refusals: why an action is not allowed now
no-not-now = 现在不能这样做
no-only-between-phases = 生命值只能在捕食阶段之外赠送或交换
no-eliminated = 你已被淘汰：只能转赠捕食卡
no-only-eliminated-give = 只有被淘汰的玩家才能转赠捕食卡
no-not-during-duel = 决斗进行中不能转赠
no-name-another = 请指定本桌的另一名玩家
no-give-to-living = 只能转赠给存活的玩家
no-no-such-card = 你没有这张捕食卡
no-useless-card = 这张卡无法使用：号码是接收者本人或已出局的玩家
no-already-ready = 你已经准备好了
no-target-out = 对方已被淘汰
no-trades-nothing = 这笔交易什么也没有交换
no-empty-box = 这会让你的生命木盒清空
no-unaffordable = 这笔交易超出了木盒中的生命，或会让一方木盒清空，请重新提出
no-in-reserve = 对方本轮在自然保护区内，不能被捕食
no-no-duel = 没有决斗
no-not-in-duel = 你不在这场决斗中
no-chosen-already = 你已经为这一回合做出选择
no-dice-need-no-choice = 掷骰决斗无需选择
no-too-much = 每方最多 { $most } 点生命
no-hold-only = 你只有 { $life } 点生命
no-card-gone = 你已经没有 { $seat } 号的捕食卡了

## Your own life and cards, each change with its amount (issue 71)
c-traded = 第 { $round } 轮：与{ $other }交易生命，给出 { $gave } 点，收到 { $got } 点：生命 { $from } → { $to }。
c-won-preying = 第 { $round } 轮：你捕食{ $other }，赢得决斗：+{ $by }（N = { $n }）：生命 { $from } → { $to }。
c-won-preyed = 第 { $round } 轮：{ $other }捕食你，你赢得决斗：+{ $by }（N = { $n }）：生命 { $from } → { $to }。
c-lost-preying = 第 { $round } 轮：你捕食{ $other }，输掉决斗：-{ $by }（N = { $n }）：生命 { $from } → { $to }。
c-lost-preyed = 第 { $round } 轮：{ $other }捕食你，你输掉决斗：-{ $by }（N = { $n }）：生命 { $from } → { $to }。
c-lost-preying-reserve = 第 { $round } 轮：你捕食{ $other }，输掉决斗：-{ $by }（N = { $n }）：生命 { $from } → { $to }。你进入自然保护区，本轮不会再被捕食。
c-lost-preyed-reserve = 第 { $round } 轮：{ $other }捕食你，你输掉决斗：-{ $by }（N = { $n }）：生命 { $from } → { $to }。你进入自然保护区，本轮不会再被捕食。
c-eliminated = 第 { $round } 轮：你赢得决斗并淘汰了{ $other }：+{ $n }（N），淘汰奖励 +{ $bonus }：生命 { $from } → { $to }。
c-out = 第 { $round } 轮：{ $other }赢得决斗（N = { $n }）：-{ $by }，你的生命木盒空了：生命 { $from } → 0。你被淘汰了。
c-starved = 第 { $round } 轮：你没有捕食，也没有被捕食：挨饿 -{ $by }（N = { $n }）：生命 { $from } → { $to }。
c-starved-out = 第 { $round } 轮：你没有捕食，也没有被捕食：挨饿（N = { $n }）使你的生命木盒空了：生命 { $from } → 0。你出局了。
c-card-handed-in = 第 { $round } 轮：你把 { $card } 号捕食卡交给了裁判。
c-card-given = 你把 { $card } 号捕食卡送给了{ $other }。
c-card-received = { $other }把 { $card } 号捕食卡送给了你。
