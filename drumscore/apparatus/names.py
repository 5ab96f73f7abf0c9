"""The names of the sources, one name under both scripts, and the table of the two scripts.

The notes and counts of the editions name texts and commentators (吳澄本, 大戴禮, 徐伯魯); an
edition in simplified script names them 吴澄本, 大戴礼, 徐伯鲁. They are one source: matched by
their folded form, each traditional character written in its simplified form, and shown by the
name the corpus and the notes use. The table holds every character of the witnesses, seeds, notes
and corpus that the two scripts write apart (drawn once from OpenCC's tables, which the project
needs at run time nowhere); it also tells the script a passage is written in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from drumscore.i18n import language

if TYPE_CHECKING:
    from drumscore.model import Edition, Wording

#: Each traditional character the sources use, and below it at the same place its simplified form.
TRADITIONAL = (
    "並乾亂來倉個側傑備傳傷僞儀優兇內兩別則剛劉動勝勸勻協卻參叢吳呂問喪嚴囪國圓圖執堅報塤墾壇"
    "壞壺奪孫學宮實審寫寶將專尋對屍屨屬嶽帥師帶幣幹庫廁廂廟廢廣廬張彄彌彥後徑從復徵徹悅惡慤慶"
    "憂憑應懼戰戶挾採搖撲擇擊據擻擼敗敵數斂斬於時晉暘書會東棄楊榦榮樂橫櫻欽歟歡歸殘殯毆決況淵"
    "湊準溫滿潔潛瀆災為無營爲牆狀狹猶獲獵獻畢畫異當發盡盤眾矇禡禮禰禱種稱積穎節範簡簫籌籤籩紀"
    "約紆納純紙級細紹終絃結絞絰經綱綺緦編緩練縛縣縮縱總繼繾續纚罰羆羣義習聖聞聰聲職聽肅脩脫膚"
    "臘臺與興舉舊舘蓋薦藝蘊蘋處虛號虧衆衛裏補複褻襲見視親覲觀觴觶觸計訊訓訖記設許註証詒詔詞詢"
    "詩詮詳誅語誤誥說説談請論諳諶諸諾謀謂謙講謠證識譙譜譽讀變讓豈豐貍貟負貢貪貶費賀賈賓賜賞賢"
    "賤質贊趙趨踰躋躍車軍載輒輕輿辭辯農連進過達遙遜遞遠適遷選遺還鄉鄭釋鈞鈧鉞銘鋒鋪鋭錄錯録鍵"
    "鏜鐘長門閉開閒間閣閱闊闔闕闖闢陰陳陸陽階隨隻雖雙離難雲韋韓頁頂頃順須預頒頓頗領頭頴頸頻題"
    "類風飲餉養餘餚饗馬馮騎騶驚驛體鬥魚魯鮮鳴鴆鶚鷺黃點黨齊齋齒齡"
)
SIMPLIFIED = (
    "并干乱来仓个侧杰备传伤伪仪优凶内两别则刚刘动胜劝匀协却参丛吴吕问丧严囱国圆图执坚报埙垦坛"
    "坏壶夺孙学宫实审写宝将专寻对尸屦属岳帅师带币干库厕厢庙废广庐张𫸩弥彦后径从复征彻悦恶悫庆"
    "忧凭应惧战户挟采摇扑择击据擞撸败敌数敛斩于时晋旸书会东弃杨干荣乐横樱钦欤欢归残殡殴决况渊"
    "凑准温满洁潜渎灾为无营为墙状狭犹获猎献毕画异当发尽盘众蒙祃礼祢祷种称积颖节范简箫筹签笾纪"
    "约纡纳纯纸级细绍终弦结绞绖经纲绮缌编缓练缚县缩纵总继缱续𫄥罚罴群义习圣闻聪声职听肃修脱肤"
    "腊台与兴举旧馆盖荐艺蕴苹处虚号亏众卫里补复亵袭见视亲觐观觞觯触计讯训讫记设许注证诒诏词询"
    "诗诠详诛语误诰说说谈请论谙谌诸诺谋谓谦讲谣证识谯谱誉读变让岂丰狸贠负贡贪贬费贺贾宾赐赏贤"
    "贱质赞赵趋逾跻跃车军载辄轻舆辞辩农连进过达遥逊递远适迁选遗还乡郑释钧钪钺铭锋铺锐录错录键"
    "镗钟长门闭开闲间阁阅阔阖阙闯辟阴陈陆阳阶随只虽双离难云韦韩页顶顷顺须预颁顿颇领头颕颈频题"
    "类风饮饷养余肴飨马冯骑驺惊驿体斗鱼鲁鲜鸣鸩鹗鹭黄点党齐斋齿龄"
)
_FOLD = str.maketrans(TRADITIONAL, SIMPLIFIED)
#: Characters only the traditional script writes, and only the simplified one.
_ONLY_TRADITIONAL = frozenset(TRADITIONAL) - frozenset(SIMPLIFIED)
_ONLY_SIMPLIFIED = frozenset(SIMPLIFIED) - frozenset(TRADITIONAL)

Script = Literal["traditional", "simplified"]


def folded(text: str) -> str:
    """`text` with each traditional character in its simplified form: the one key of a name
    under both scripts (folded("吳澄本") == folded("吴澄本"))."""
    return text.translate(_FOLD)


def prose(text: str) -> str:
    """`text`, a name in a view's prose (an edition, its citation, a commentator, a reading, a
    state's drum), in the script of the language speaking: simplified in 简体 (礼记注疏, 徐伯鲁,
    鲁鼓), as given in any other. Quotations, the notation, printed text and variant readings
    never pass through here."""
    return folded(text) if language() == "zh_Hans" else text


def script_of(text: str) -> Script | None:
    """The script `text` is written in, by which script's own characters it holds more of; None
    when it holds none of either (notation, or characters both scripts write alike)."""
    traditional = sum(1 for c in text if c in _ONLY_TRADITIONAL)
    simplified = sum(1 for c in text if c in _ONLY_SIMPLIFIED)
    if traditional == simplified:
        return None
    return "traditional" if traditional > simplified else "simplified"


#: The names of sources that the corpus's notes and counts and the project's notes use, as
#: they write them: a name in the other script is shown as one of these.
KNOWN = (
    "吳澄本",
    "吳澄",
    "大戴禮",
    "大戴禮記",
    "朱子",
    "朱熹",
    "徐伯魯",
    "郝仲輿",
    "鄭玄",
    "鄭康成",
    "孔穎達",
    "陸德明",
    "陸佃",
    "毛奇齡",
    "朱載堉",
    "陳暘",
    "王應麟",
)
_BY_KEY = {folded(name): name for name in KNOWN}


def key(name: str) -> str:
    """What `name` is matched by: the same for 吳澄本 and 吴澄本."""
    return folded(name.strip())


def shown(name: str) -> str:
    """The name a source is shown by: the corpus's spelling where it has one (吴澄本 → 吳澄本),
    else the name as written."""
    return _BY_KEY.get(key(name), name.strip())


def sigla(pool: Sequence[Edition]) -> dict[int, str]:
    """A short, unique siglum for each edition (by id(edition)): its id (a user's edition that
    repeats an id, or whose id is not a plain name, gets a suffix or a cleaned form)."""
    taken: dict[str, str] = {}
    out = {}
    for edition in pool:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in edition.id).strip("-.")
        if not stem or not (stem[0].isalpha() or stem[0] == "_"):
            stem = f"ed-{stem}" if stem else "ed"
        siglum, n = stem, 2
        while siglum in taken:
            siglum, n = f"{stem}-{n}", n + 1
        taken[siglum] = edition.id
        out[id(edition)] = siglum
    return out


def chinese() -> bool:
    """Whether the reader's language is Chinese: its views cite editions by their short names
    and word the apparatus as a 校勘記 (衍, 脫, 作)."""
    return language().startswith("zh")


def cited(name: str, short: Wording) -> str:
    """An edition as a Chinese view cites it: its short name in the reader's script (as 阮元's
    校勘記 cites 閩本、監本、毛本), or 《name》 for an edition without one."""
    return str(short) or f"《{prose(name)}》"
