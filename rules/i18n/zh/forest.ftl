# 森林对决：裁判说的话（rules/src/forest/news.rs）。

seat = { $n } 号（{ $name }）
dealt = 你拿到的牌：{ $cards }
round-dealt = 第 { $n } 轮：发牌完毕。
short-hand = 少一张牌，本轮 +{ $bonus } 能量：{ $names }。
turn-opening = 轮到{ $who }：以一场对决开局。
turn = 轮到{ $who }。
showdown-asked = { $asker }向{ $target }发起对决。
card-laid = 你为对决出了{ $card }。
card-chosen = { $who }已选好牌。
takes = { $who }吃掉{ $card }。
stand-off = 僵持：双方各自保留手牌。
showdown = 对决：{ $asker }出{ $asker-card }，{ $target }出{ $target-card }。{ $result }
challenge = { $challenger }挑战{ $target }：“我要你的{ $named }，用我的{ $with }来吃。”{ $result }
challenge-right = 猜对了：{ $challenger }拿走{ $named }，继续行动。
challenge-wrong = 猜错了：{ $challenger }把{ $with }交给{ $target }，回合结束。
round-time-up = 时间到！当前回合结束后，本轮结束。
timed-out-turn-over = { $who }超时；回合结束。
timed-out-showdown = { $who }超时；由系统代为发起对决。
timed-out-random-card = { $who }超时；随机出一张牌。
wins = { $who }以 { $top } 点赢得{ $what }。
share = { $who }以 { $top } 点并列赢得{ $what }。
the-round = 本轮
the-game = 本局
energy = { $who } { $score }
round-over = 第 { $n } 轮结束。能量：{ $energy }。{ $won }
game-over = 游戏结束。{ $won }

## Refusals: why an action is not allowed now
no-death-decay-challenge-used = 每回合只能用一次死亡与腐朽来挑战
no-death-decay-captured = 每回合通过挑战最多只能夺取一张死亡与腐朽
no-not-started = 游戏尚未开始
no-showdown-under-way = 一场对决正在进行
no-challenge-on-your-turn = 对决进行中；请在你的回合挑战
no-no-showdown = 当前没有对决可以出牌
no-not-yourself = 请选择其他玩家，不能选自己
no-opening-showdown = 本轮以对决开局：请向其他玩家发起对决
no-not-in-showdown = 你不在这场对决中
no-already-laid = 你已经出过牌了
no-holds-no-cards = { $who }手上没有牌
no-not-holding = 你手上没有{ $card }
no-does-not-eat = { $with }不吃{ $named }

## Your own hand, each change with its amount and why (issue 71)
f-dealt = 第 { $round } 轮：你手上 { $count } 张牌，能量 { $energy }。
f-dealt-short = 第 { $round } 轮：你手上 { $count } 张牌，能量 { $energy }；比别人少一张，计分时另得少牌奖励。
f-why-eats = { $a }吃{ $b }
f-why-mutual = { $a }和{ $b }互吃
f-why-neither = { $a }和{ $b }互不相吃
f-why-decay = 死亡与腐朽遇到能拿取它的牌
f-cwhy-mutual = { $a }和{ $b }互吃：挑战时挑战者拿牌
f-cwhy-decay = 死亡与腐朽与其拿取者：挑战时挑战者获胜
f-showdown-eats = 与{ $other }对决：你的{ $mine }遇到对方的{ $theirs }；{ $why }：你拿走{ $theirs }：能量 +{ $e }（手牌 { $from } → { $to }）。
f-showdown-eaten = 与{ $other }对决：你的{ $mine }遇到对方的{ $theirs }；{ $why }：对方拿走你的{ $mine }：能量 -{ $e }（手牌 { $from } → { $to }）。
f-showdown-stand-off = 与{ $other }对决：你的{ $mine }遇到对方的{ $theirs }；{ $why }：僵持，双方各自保留。
f-challenge-right = 你用{ $with }向{ $other }挑战{ $named }（{ $why }）；对方有这张牌：你拿走它：能量 +{ $e }（手牌 { $from } → { $to }），继续行动。
f-challenge-wrong = 你用{ $with }向{ $other }挑战{ $named }，但对方没有这张牌：你的{ $with }归对方：能量 -{ $e }（手牌 { $from } → { $to }），回合结束。
f-challenged-right = { $other }用{ $with }向你挑战{ $named }（{ $why }）：这张牌归对方：能量 -{ $e }（手牌 { $from } → { $to }）。
f-challenged-wrong = { $other }用{ $with }向你挑战{ $named }，但你没有这张牌：对方的{ $with }归你：能量 +{ $e }（手牌 { $from } → { $to }）。
