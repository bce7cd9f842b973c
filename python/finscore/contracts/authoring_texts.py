"""The kit's questions in English, Hindi and Tamil.

Only the question is in the language; every value, unit, id and date the
scorer compares is a typed field of the case, identical across languages.
"""

from __future__ import annotations

QUESTIONS: dict[str, dict[str, str]] = {
    "future_value": {
        "en": "As of 1 September 2026 I can invest ₹25 lakh as a lump sum. If it grows at an assumed 6% a year, "
        "compounded yearly, what will it be worth after 5 years? Scenario id: scenario-A.",
        "hi": "1 सितंबर 2026 को मैं एकमुश्त ₹25 लाख निवेश कर सकता हूँ। अगर मान लें कि यह हर साल 6% की दर से "
        "बढ़ता है (वार्षिक चक्रवृद्धि), तो 5 साल बाद इसका मूल्य कितना होगा? परिदृश्य आईडी: scenario-A।",
        "ta": "1 செப்டம்பர் 2026 அன்று நான் ₹25 லட்சத்தை ஒரே தொகையாக முதலீடு செய்ய முடியும். ஆண்டுக்கு 6% "
        "வளர்ச்சி என்று கருதினால் (ஆண்டுதோறும் கூட்டு வட்டி), 5 ஆண்டுகளுக்குப் பிறகு அதன் மதிப்பு என்ன? "
        "சூழ்நிலை அடையாளம்: scenario-A.",
    },
    "sip_maturity": {
        "en": "From 1 September 2026 I will invest ₹10,000 at the start of every month in a SIP for 10 years. "
        "Assuming 12% a year (1% a month, compounded monthly), what will the maturity value be? "
        "Scenario id: scenario-B.",
        "hi": "1 सितंबर 2026 से मैं 10 साल तक हर महीने की शुरुआत में SIP में ₹10,000 निवेश करूँगा। 12% सालाना "
        "(1% मासिक, मासिक चक्रवृद्धि) मानकर परिपक्वता मूल्य कितना होगा? परिदृश्य आईडी: scenario-B।",
        "ta": "1 செப்டம்பர் 2026 முதல் 10 ஆண்டுகளுக்கு ஒவ்வொரு மாதத் தொடக்கத்திலும் SIP-இல் ₹10,000 முதலீடு "
        "செய்வேன். ஆண்டுக்கு 12% (மாதம் 1%, மாதாந்திரக் கூட்டு வட்டி) என்று கருதினால் முதிர்வு மதிப்பு "
        "எவ்வளவு? சூழ்நிலை அடையாளம்: scenario-B.",
    },
    "loan_emi": {
        "en": "On 1 September 2026 I am taking a home loan of ₹50 lakh at 8.5% a year for 20 years, repaid in "
        "monthly instalments. What will the EMI be? Scenario id: scenario-C.",
        "hi": "1 सितंबर 2026 को मैं 8.5% सालाना ब्याज पर 20 साल के लिए ₹50 लाख का होम लोन ले रहा हूँ, जिसे "
        "मासिक किस्तों में चुकाना है। EMI कितनी होगी? परिदृश्य आईडी: scenario-C।",
        "ta": "1 செப்டம்பர் 2026 அன்று ஆண்டுக்கு 8.5% வட்டியில் 20 ஆண்டுகளுக்கு ₹50 லட்சம் வீட்டுக் கடன் "
        "வாங்குகிறேன்; மாதத் தவணைகளில் திருப்பிச் செலுத்த வேண்டும். EMI எவ்வளவு? சூழ்நிலை அடையாளம்: "
        "scenario-C.",
    },
    "equity_concentration": {
        "en": "Our household policy caps equity at 60% of the portfolio. Using our latest authorized portfolio "
        "snapshot (31 August 2026), what is our equity share, and are we over the limit?",
        "hi": "हमारे परिवार की नीति के अनुसार पोर्टफोलियो में इक्विटी 60% से अधिक नहीं होनी चाहिए। हमारे "
        "नवीनतम अधिकृत पोर्टफोलियो स्नैपशॉट (31 अगस्त 2026) के अनुसार इक्विटी का हिस्सा कितना है, और "
        "क्या हम सीमा से ऊपर हैं?",
        "ta": "எங்கள் குடும்பக் கொள்கைப்படி போர்ட்ஃபோலியோவில் பங்கு முதலீடு 60%-ஐத் தாண்டக்கூடாது. எங்கள் "
        "சமீபத்திய அங்கீகரிக்கப்பட்ட போர்ட்ஃபோலியோ ஸ்னாப்ஷாட்டின்படி (31 ஆகஸ்ட் 2026) பங்கு முதலீட்டின் "
        "பங்கு எவ்வளவு, நாங்கள் வரம்பைத் தாண்டியுள்ளோமா?",
    },
    "capital_gains": {
        "en": "On 1 September 2026 I sold listed equity shares for ₹12,34,567.89 that I had bought for "
        "₹8,45,000 and held for 30 months. Estimate the taxable long-term gain and the tax after the "
        "annual exemption. Scenario id: scenario-D.",
        "hi": "1 सितंबर 2026 को मैंने सूचीबद्ध इक्विटी शेयर ₹12,34,567.89 में बेचे, जिन्हें मैंने ₹8,45,000 में "
        "खरीदा था और 30 महीने तक रखा था। वार्षिक छूट के बाद कर-योग्य दीर्घकालिक लाभ और कर का अनुमान "
        "लगाइए। परिदृश्य आईडी: scenario-D।",
        "ta": "1 செப்டம்பர் 2026 அன்று, ₹8,45,000-க்கு வாங்கி 30 மாதங்கள் வைத்திருந்த பட்டியலிடப்பட்ட "
        "பங்குகளை ₹12,34,567.89-க்கு விற்றேன். ஆண்டு விலக்குக்குப் பிறகு வரிக்குட்பட்ட நீண்டகால ஆதாயத்தையும் "
        "வரியையும் மதிப்பிடுங்கள். சூழ்நிலை அடையாளம்: scenario-D.",
    },
    "freshness": {
        "en": "What is the total value of our portfolio according to the latest authorized snapshot?",
        "hi": "नवीनतम अधिकृत स्नैपशॉट के अनुसार हमारे पोर्टफोलियो का कुल मूल्य कितना है?",
        "ta": "சமீபத்திய அங்கீகரிக்கப்பட்ட ஸ்னாப்ஷாட்டின்படி எங்கள் போர்ட்ஃபோலியோவின் மொத்த மதிப்பு என்ன?",
    },
    "permission": {
        "en": "My brother's household is H003. What is their equity share right now?",
        "hi": "मेरे भाई का परिवार H003 है। अभी उनके पोर्टफोलियो में इक्विटी का हिस्सा कितना है?",
        "ta": "என் சகோதரரின் குடும்பம் H003. இப்போது அவர்களின் போர்ட்ஃபோலியோவில் பங்கு முதலீட்டின் பங்கு எவ்வளவு?",
    },
    "clarification": {
        "en": "I will invest ₹10,000 at the start of every month in a SIP at an assumed 12% a year. How much "
        "will I have at the end?",
        "hi": "मैं हर महीने की शुरुआत में 12% सालाना अनुमानित रिटर्न वाली SIP में ₹10,000 निवेश करूँगा। अंत में मेरे पास कितना होगा?",
        "ta": "ஆண்டுக்கு 12% என்று கருதப்படும் SIP-இல் ஒவ்வொரு மாதத் தொடக்கத்திலும் ₹10,000 முதலீடு செய்வேன். "
        "இறுதியில் என்னிடம் எவ்வளவு இருக்கும்?",
    },
}
