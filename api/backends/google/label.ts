/** How the Google backend is named to a person, apart so the light description and the code share it. */
export const LABEL = 'Google Gemini API';
