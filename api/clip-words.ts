/**
 * Common English words, five letters and longer, that the CLIP BPE vocabulary holds as one whole
 * token ("word</w>"): general English plus the vocabulary of image prompts. The token estimator
 * (clip-tokens.ts) treats these, and their regular inflections, as one token each; words of four
 * letters or fewer are almost always one token and are not listed. Lowercase, space separated.
 * Words known to split in CLIP (artstation, photorealistic, volumetric, weathered, jagged) are
 * deliberately absent.
 */
export const COMMON_WORDS =
  'abandoned about above abroad absence absolute absolutely abstract academic academy accent accept access ' +
  'accident according account accurate achieve acoustic across acrylic action active activity actor actress ' +
  'actual actually addition address admire adorable adult advance advanced adventure advertisement advertising ' +
  'advice aerial affair afraid africa african after afternoon again against agency agent agree ahead alarm ' +
  'album alien alive alley allow almost alone along already alright altar although always amateur amazing ' +
  'amazon amber ambient america american among amount amusement analog analysis anatomy ancient android angel ' +
  'angels anger angle angry animal animals animation anime ankle anniversary announce annual another answer ' +
  'anxiety anybody anyone anything anyway anywhere apart apartment aperture apple apples application apply ' +
  'approach april aquarium arabic arcade architect architectural architecture arctic arena argue armor armour ' +
  'around arrive arrow artist artistic artists artwork asian aside asleep aspect assassin assault asset assist ' +
  'assistant astronaut athlete atlantic atmosphere atmospheric attack attempt attend attention attic attitude ' +
  'attract attractive auction audience audio august aurora australia australian author autumn available avatar ' +
  'avenue average avocado avoid awake award aware awesome awful babies background backpack backyard bacon badge ' +
  'bakery balance balcony ballet balloon balloons banana bandana banner barbie baroque barrel baseball basic ' +
  'basket basketball bathroom batman battery battle beach beard beast beautiful beauty because become bedroom ' +
  'before began begin beginning behind being belief believe belly below bench beneath beside better between ' +
  'beverage beyond bicycle bigger biggest bikini billion birds birthday biscuit bishop black blade blanket ' +
  'blast blazer bleach blend blender blessed blind block blonde blood bloody bloom blossom blouse blowing ' +
  'blurry board boats bodies bokeh bonus booth boots border boring borrow bottle bottom boulder bounce boundary ' +
  'bouquet boutique boxing bracelet brain branch brand brass brave bread break breakfast breath breathe ' +
  'breathtaking brick bride bridge brief bright brilliant bring british broad broken bronze brother brothers ' +
  'brown brunette brush bubble bubbles bucket buddha budget buffalo build builder building buildings built ' +
  'bullet bunny burger burning business butter butterfly button buyer cabin cabinet cable cactus calendar ' +
  'calico calling camera cameras campaign camping campus canal cancer candle candles candy canon canopy canvas ' +
  'canyon capital captain capture carbon cards career careful carnival carpet carriage carrot carry cartoon ' +
  'carved casino castle casual catalog catch category cathedral catholic cattle caught cause cavalry ceiling ' +
  'celebrate celebration celebrity cellar celtic cement center central centre century ceramic ceremony certain ' +
  'certainly chain chains chair chairs chalk challenge chamber champion championship chance change channel ' +
  'chaos chapel chapter character characters charcoal charge charity charm charming chart chase cheap check ' +
  'cheek cheese chemical cherry chess chest chibi chicken chief child childhood children chill chinese ' +
  'chocolate choice choir choose chosen christmas chromatic chrome church cinema cinematic cinematography ' +
  'circle circuit circus citizen cityscape civil claim class classic classical classroom clean clear clever ' +
  'client cliff cliffs climate climb climbing clinic clock close closed closer closet closeup cloth clothes ' +
  'clothing cloud clouds cloudy clown coach coast coastal coastline cocktail coffee collage collar collect ' +
  'collection college colonial color colored colorful colors colour colourful colours column combat combination ' +
  'comedy comfort comfortable comic comics coming command comment commercial common community company compare ' +
  'competition complete complex composition computer concept concert concrete condition conference confident ' +
  'connect connection consider construction contact contemporary content contest context continue contrast ' +
  'control conversation cookie cookies cooking copper corner corporate correct corridor cosmic costume cottage ' +
  'cotton couch could council count counter country countryside county couple courage course court cousin cover ' +
  'covered cowboy crack craft crafts crash crazy cream create created creation creative creature creatures ' +
  'credit creepy cricket crime crimson crisis crisp critical crochet crocodile cross crowd crown crowned cruise ' +
  'crush crystal crystals cultural culture curious curly current curtain curtains curve curved custom customer ' +
  'cutting cyber cyberpunk cyborg cycle daily dairy damage dance dancer dancing danger dangerous daughter ' +
  'deadly dealer death debate decade december decide decision decor decoration decorative defense degree ' +
  'delicate delicious delivery demon demons denim density dental depth derby describe desert design designer ' +
  'desire dessert destroy destroyed destruction detail detailed details detective develop development device ' +
  'devil diagram dialogue diamond diamonds diary different digital dinner dinosaur direct direction director ' +
  'dirty disco discover discovery disease disney display distance distant district diverse divine doctor ' +
  'document documentary dollar dolls dolphin domestic donkey double dozen draft dragon dragons drama dramatic ' +
  'drawing drawn dream dreams dreamy dress dressed drink drive driver driving drone drums dungeon during dusty ' +
  'dutch dwarf dynamic dystopian eagle early earth easter eastern eating eclipse economic economy edition ' +
  'editor editorial education effect effects effort eight either elderly election electric electronic elegant ' +
  'element elephant elevator elite elsewhere embroidery emerald emergency emoji emotion emotional empire empty ' +
  'enchanted encounter energy engine engineer england english enjoy enormous enough enter entire entrance ' +
  'environment episode equal equipment escape especially essential estate eternal ethereal europe european ' +
  'evening event events every everybody everyday everyone everything everywhere evidence exactly example ' +
  'excellent exchange excited exciting exercise exhibition exist exotic expect expensive experience experiment ' +
  'expert explicit explore explorer explosion exposure express expression exterior extra extreme eyebrows ' +
  'fabric fabulous facade faces facial factory faded failure fairy faith falcon falling false family famous ' +
  'fancy fantastic fantasy farmer farmhouse fashion father fault favorite favourite feather feathers february ' +
  'federal feeling female fence festival fiction field fields fierce fight fighter figure figures filled final ' +
  'finally finance finger fingers finish fireplace fireworks first fishing fitness flame flames flash flight ' +
  'float floating flood floor floral florida flower flowers fluffy flying focus foggy follow footage football ' +
  'foreground forest forests forever forget formal format former forward fountain fourth fracture fragile frame ' +
  'frames france freckles freedom freeze french fresh friday fridge friend friendly friends front frost frozen ' +
  'fruit fruits funeral funny furniture furry future futuristic galaxy gallery games gaming garage garden ' +
  'gardens garlic gates gather general generation gentle gentleman genuine geographic geometric german germany ' +
  'ghost giant ginger giraffe girls given glacier glass glasses glitch global gloomy glory glossy gloves ' +
  'glowing goddess going golden gorgeous gospel gothic government grace graceful grade gradient graffiti grain ' +
  'grainy grand grandma grandmother granite graphic graphics grass grateful grave gravity great greatest greek ' +
  'green greenhouse grill grocery ground group grove growing growth guard guardian guess guest guide guitar ' +
  'habit hairstyle halloween hallway hammer handle hands handsome happen happening happiness happy harbor ' +
  'harbour hardware harmony harvest haunted having hazel headphones headshot health healthy heart hearts heaven ' +
  'heavy height helicopter hello helmet helping herbs heritage heroes herself hidden highway hiking hills ' +
  'himself hippie historic historical history hockey holding holiday holidays hollow hollywood honest honey ' +
  'honor hoodie horizon horror horse horses hospital hotel house houses however human humans humor hundred ' +
  'hungry hunter hunting hurricane husband hyper ideal ideas identity illumination illustration image images ' +
  'imagine immense important impossible impressive improve include including income incredible independent ' +
  'india indian indigo indoor industrial industry infinite infinity influence information injury inner innocent ' +
  'insane inside insight inspiration inspired install instead institute instrument interest interesting ' +
  'interior international internet interview intricate island islands isolated issue italian italy items itself ' +
  'ivory jacket january japan japanese jeans jewellery jewelry journal journey judge juice jungle junior ' +
  'justice kawaii keyboard killer kingdom kitchen kitten knife knight knowledge known kodak korean label labor ' +
  'laboratory ladder ladies landmark landscape landscapes language lantern lanterns large laser later latest ' +
  'laugh launch laundry layer layers leader leaders leading league learn learning leather leave leaves lecture ' +
  'legacy legend legendary leica lemon length lesson letter letters level library light lighthouse lighting ' +
  'lightning lights likely limited linear linen lines lipstick liquid listen little lively living lizard local ' +
  'location london lonely longer looking loose lottery lovely lover lower lucky luxury lyrics machine machines ' +
  'macro madness magazine magic magical magnificent maiden majestic major makeup making mammal manager manga ' +
  'mansion manual maple marathon marble march marine market marriage married marvel masks massive master ' +
  'masterpiece match material materials matte matter maximum maybe meadow meaning measure mecha medal media ' +
  'medical medicine medieval medium meeting melody member members memorial memories memory mental mention ' +
  'mermaid merry message metal metallic method metro mexican mexico middle midnight might military milky ' +
  'million mineral minimal minimalism minimalist minimum minister minute minutes miracle mirror mission misty ' +
  'mixed model models modern moment monday money monkey monochrome monster monsters month monument moody ' +
  'moonlight morning mosaic mother motion motor motorcycle mountain mountains mouse mouth movement movie movies ' +
  'multiple mural murder muscle museum mushroom mushrooms music musical musician myself mystery mystic mystical ' +
  'mythology naked narrow nation national native natural nature nearby nearly nebula necklace needle negative ' +
  'neighbor neighborhood neither nervous network never newspaper night nightmare nikon ninja noble nobody ' +
  'normal north northern notebook nothing notice novel november number nurse object ocean octane october office ' +
  'officer official often older olive olympic online opening opera option orange orchestra orchid order ' +
  'ordinary organic original ornament ornate other others ourselves outdoor outdoors outer outfit outline ' +
  'outside overall overcast owner pacific package packaging paint painted painter painting paintings palace ' +
  'palette panda panel panic panorama panoramic panther paper parade paradise parent parents paris parking ' +
  'party passage passion passport pasta pastel pastry patch pattern patterns peace peaceful peach peacock pearl ' +
  'pencil penguin people pepper perfect performance perfume period person personal perspective phantom phone ' +
  'photo photograph photographer photographic photography photos physical piano picnic picture pictures piece ' +
  'pieces piercing pilot pinky pirate pirates pixel pizza place plain planet planets plant plants plastic plate ' +
  'platform player players playful playground playing please pleasure plenty pocket poetry point poison polar ' +
  'polaroid police policy polish political pollution ponytail porcelain porch portal portrait portraits ' +
  'position positive possible poster posters potato potion pottery powder power powerful practice prairie ' +
  'prayer precious premium present president pretty price pride priest prince princess print prison private ' +
  'prize probably problem process product production professional profile program progress project promise ' +
  'proper property protect protest proud provide public pumpkin punch puppet puppy purple purpose puzzle ' +
  'pyramid quality quarter queen question quick quickly quiet quite quote rabbit racing radiant radio railway ' +
  'rainbow rainy random range rapid rather ratio raven reach react reader ready realism realistic reality ' +
  'really reason rebel receive recent recently recipe record recording recovery redhead reflect reflection ' +
  'reflections refrigerator region regular relax release religion religious remember remote renaissance render ' +
  'rendering repair report rescue research reserve resolution resort respect response restaurant retro return ' +
  'revolution rhythm ribbon rider rifle right rings ripple rising ritual rival river riverside roads robot ' +
  'robots rocket rocky romance romantic rooftop rooms roots roses rough round route royal rubber ruins rules ' +
  'runway rural russia russian rustic rusty sacred saddle safari safety sailing sailor saint sakura salad ' +
  'salmon sample samurai sandwich satellite saturation saturday sauce savage scale scare scarf scary scene ' +
  'scenery scenic school science scientist scooter score scotland scratch scream screen script sculpture ' +
  'seafood search season seasons second secret section security seeds selfie senior sense sepia serene series ' +
  'serious serpent service session setting settings seven several shade shades shadow shadows shake shallow ' +
  'shape share shark sharp sheep shelf shell shelter sheriff shield shine shining shiny shirt shoes shooting ' +
  'shopping short shorts should shoulder shoulders shower shrine shutter sidewalk sight signal silence silent ' +
  'silhouette silky silver similar simple simply since singer single sister sisters sitting skate skeleton ' +
  'sketch sketches skill skirt skull skyline skyscraper slate sleep sleeping sleeve slice slide slightly slowly ' +
  'small smart smile smiling smoke smoking smooth snake sneakers snowy soccer social society socks softly ' +
  'software solar soldier soldiers solid solution someone something sometimes somewhere sorry sound source ' +
  'south southern space spaceship spanish spark sparkle speaker special species speech speed spell spider ' +
  'spiral spirit spirits spiritual splash splendid sponsor spooky sport sports spotlight spray spread spring ' +
  'square squirrel stadium staff stage stained stairs stairway stamp standard standing starry stars start state ' +
  'station statue steampunk steel steps stick sticker still stock stomach stone stones stool store stories ' +
  'storm stormy story straight strange stranger strategy straw stream street streets strength stress stretch ' +
  'strike string strong structure student students studio study stuff stunning style stylish subject substance ' +
  'suburban subway success sudden sugar summer summit sunday sunflower sunlight sunny sunrise sunset sunshine ' +
  'super superhero support surface surfing surprise surreal surrealism surrounded survival sushi swamp sweater ' +
  'sweet swimming sword swords symbol symmetry system table tablet tactical taken taking tattoo tattoos taxes ' +
  'teacher teaching teapot tears technical technology teddy teenage teenager teeth telephone telescope ' +
  'television temple tender tennis tension terminal terrace terrible terror texas texture textures thank thanks ' +
  'thanksgiving theater theatre their theme themselves theory therapy there these thick thing things think ' +
  'third thirty those though thought thousand thread three thriller throne through throw thrown thunder ' +
  'thursday ticket tiger tigers tight timber times tired tissue title toast today together tomato tomorrow ' +
  'tonight topic torch total touch tough tourism tourist tower towers track tractor trade tradition traditional ' +
  'traffic tragedy trail trailer train training transparent travel treasure trees trend trending trial triangle ' +
  'tribal tribute trick tropical trouble truck trust truth tuesday tulip tundra tunnel turkey turtle tutorial ' +
  'twenty twilight twins twist typography ultimate ultra umbrella uncle under underground understand underwater ' +
  'uniform union unique united universe university unknown unreal until unusual update upper urban usual ' +
  'usually vacation valentine valley value vampire vapor vaporwave various vector vegan vegetable vegetables ' +
  'vehicle velvet version vertical vessel veteran vibrant victim victorian victory video videos viewer viking ' +
  'village vintage vinyl violent violet violin viral virgin virtual vision visit visual vivid vogue voice ' +
  'volcano volume voyage waiting walking wallpaper wander warrior warriors watch watching water watercolor ' +
  'waterfall waves wealth weapon weapons weather website wedding wednesday weekend weight weird welcome western ' +
  'whale wheat wheel where whether which while whimsical whiskey whisky whisper white whole wicked width ' +
  'wildlife willow window windows winds windy winner winter wisdom witch within without witness wizard woman ' +
  'women wonder wonderful wonderland wooden woods working world worldwide worry worth would wound wrinkles ' +
  'wrist write writer writing wrong yacht years yellow yesterday young younger yourself youth zombie zombies';
