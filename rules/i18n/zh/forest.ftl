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
